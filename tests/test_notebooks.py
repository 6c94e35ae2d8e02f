"""The notebooks run top to bottom (small settings) and end with a plot or table."""
from __future__ import annotations


from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_four_notebooks():
    assert [p.stem for p in NOTEBOOKS] == ["01_quickstart", "02_train", "03_evaluate", "04_card_game"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("YUUGI_NOTEBOOK_SMALL", "1")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent.parent)}}).execute()
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    # The last cell shows something: a printed table or a figure.
    assert last.outputs, f"{path.name}: the last cell shows nothing"



@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_with_its_outputs(path):
    """Someone browsing the repository sees the tables and the plot without running anything."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), f"{path.name}: a code cell was never run"
    assert code[-1].outputs, f"{path.name}: the last cell shows nothing"
    images = [o for c in code for o in c.outputs if "image/png" in o.get("data", {})]
    assert images, f"{path.name}: no plot in the committed outputs"
