"""The notebooks run top to bottom (small settings) where Jupyter runs them, from ``notebooks/``, in order
(02 saves the policy 03 rates), and end with a plot or table; they are committed with the outputs of a full
run (the settings a reader runs them with), never the suite's small ones."""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_four_notebooks():
    assert [p.stem for p in NOTEBOOKS] == ["01_quickstart", "02_train", "03_evaluate", "04_card_game"]


def _run(path: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    # Jupyter runs a notebook in its own folder: package data must be found through the package.
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def test_the_notebooks_run_in_order_from_their_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("YUUGI_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("YUUGI_RUNS", str(tmp_path / "runs"))  # where 02 saves and 03 reads (not the repository)
    for path in NOTEBOOKS:
        nb = _run(path)
        last = [c for c in nb.cells if c.cell_type == "code"][-1]
        assert last.outputs, f"{path.name}: the last cell shows nothing"  # a printed table or a figure
        if path.stem == "02_train":
            assert (tmp_path / "runs" / "train" / "nigejozu_notebook.npz").exists()
        if path.stem == "03_evaluate":
            text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
            assert "rating nigejozu_notebook.npz" in text  # 02's policy, not a fresh one
            assert "mine against each level" in text


def test_03_stops_and_says_so_without_02s_policy(tmp_path, monkeypatch):
    monkeypatch.setenv("YUUGI_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("YUUGI_RUNS", str(tmp_path / "empty"))
    with pytest.raises(CellExecutionError, match="run notebook 02_train first"):
        _run(next(p for p in NOTEBOOKS if p.stem == "03_evaluate"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_with_its_outputs(path):
    """Someone browsing the repository sees the tables and the plot without running anything."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), f"{path.name}: a code cell was never run"
    assert code[-1].outputs, f"{path.name}: the last cell shows nothing"
    images = [o for c in code for o in c.outputs if "image/png" in o.get("data", {})]
    assert images, f"{path.name}: no plot in the committed outputs"


def _output_text(nb: nbformat.NotebookNode) -> str:
    """Everything the code cells printed or displayed as text (streams, plain-text data, tracebacks)."""
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            parts.append(out.get("text", ""))
            parts.append(out.get("data", {}).get("text/plain", ""))
            parts.extend(out.get("traceback", []))
    return "\n".join(parts)


SMALL_MARK = "small run (the test suite's settings)"  # what each notebook's first cell prints in small mode


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_outputs_are_a_full_run(path):
    """A reader sees what the notebook shows when they run it, not the suite's 10-game smoke run."""
    text = _output_text(nbformat.read(path, as_version=4))
    assert SMALL_MARK not in text and "full run" in text, f"{path.name}: committed with small-mode outputs"
    if path.stem == "01_quickstart":
        assert "1024 games" in text and "64 games" not in text
    if path.stem == "02_train":
        steps = [int(n) for n in re.findall(r"^(\d+) steps in ", text, re.M)]
        assert steps and steps[0] >= 200_000, f"02_train: trained {steps} steps, a full run trains 200,000"
    if path.stem == "03_evaluate":  # every pairing of the round-robin and every row of the report: 1,000 games
        games = {n.replace(",", "") for n in re.findall(r"^│ \S+ +│ \S+ +│ ([\d,]+) +│", text, re.M)}
        assert games == {"1000"}, f"03_evaluate: games per pairing {sorted(games)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_outputs_carry_no_path_of_the_machine_they_ran_on(path):
    text = _output_text(nbformat.read(path, as_version=4))
    found = re.findall(r"(?:/tmp|/root|/home|/work|/Users)/\S*", text)
    assert not found, f"{path.name}: outputs show local paths {found[:3]}"
