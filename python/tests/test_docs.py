"""The package's documentation renders with pydoc: every public name has a docstring, and help() shows
it with its signature."""

from __future__ import annotations

import inspect
import pydoc

import framedial


def test_every_public_name_has_a_docstring_that_pydoc_renders() -> None:
    page = pydoc.render_doc(framedial, renderer=pydoc.plaintext)
    for name in framedial.__all__:
        item = getattr(framedial, name)
        doc = inspect.getdoc(item)
        assert doc, f"{name} has no docstring"
        assert doc.splitlines()[0] in page, name
        rendered = pydoc.render_doc(item, renderer=pydoc.plaintext)
        assert doc.splitlines()[0] in rendered
    assert "batch(inputs: " in page and "*, preset: " in page


def test_the_functions_document_their_arguments_and_errors() -> None:
    for function in (framedial.apply, framedial.batch):
        doc = inspect.getdoc(function) or ""
        for section in ("Args:", "Raises:"):
            assert section in doc, f"{function.__name__}: no {section}"
        documented = doc.split("Args:")[1].split("Raises:")[0].split("Returns:")[0]
        for parameter in inspect.signature(function).parameters.values():
            name = parameter.name if parameter.kind != parameter.VAR_KEYWORD else "**" + parameter.name
            assert f"{name}:" in documented, f"{function.__name__}: {name} is not documented"
    assert "Returns:" in (inspect.getdoc(framedial.batch) or "")
