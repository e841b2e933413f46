"""Math: `$...$` in prose becomes MathML at build time, and nothing but MathML.

latex2mathml builds an element tree, then serialises it with its text
*unescaped*: `\\text{<script>}` would reach the page as a real element, and
`\\href`, `\\style` or `\\class` put attributes of the author's choosing on it.
So the tree is written out here instead: only MathML presentation elements,
only presentational attributes, and every text and attribute value escaped. A
`\\text{...}` therefore holds text, and `\\href{url}{x}` shows a plain x.
"""

from __future__ import annotations

import html
from xml.etree.ElementTree import Element

# MathML Core's presentation elements (https://www.w3.org/TR/mathml-core/).
MATHML_ELEMENTS = frozenset({
    "math", "maction", "annotation", "annotation-xml", "merror", "mfrac", "mi", "mmultiscripts",
    "mn", "mo", "mover", "mpadded", "mphantom", "mprescripts", "mroot", "mrow", "ms", "mspace",
    "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable", "mtd", "mtext", "mtr", "munder",
    "munderover", "semantics", "menclose", "mfenced", "none",
})  # fmt: skip
# Attributes that only change how math is laid out: none names a URL, a class, a style
# or a script.
MATHML_ATTRIBUTES = frozenset({
    "accent", "accentunder", "columnalign", "columnlines", "columnspacing", "columnspan",
    "depth", "display", "displaystyle", "fence", "form", "height", "largeop", "linethickness",
    "lspace", "mathvariant", "maxsize", "minsize", "movablelimits", "notation", "rowalign",
    "rowlines", "rowspacing", "rowspan", "rspace", "scriptlevel", "separator", "stretchy",
    "symmetric", "voffset", "width",
})  # fmt: skip
MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML"


def tex_to_mathml(tex: str, display: str) -> str | None:
    """MathML for `tex` ('inline' or 'block'), or None when latex2mathml cannot read it."""
    # Imported on first use: it pulls in urllib and ssl, and most pages have no math.
    from latex2mathml.converter import convert_to_element  # noqa: PLC0415

    try:
        tree = convert_to_element(tex, display=display)
    except Exception:  # latex2mathml raises many types on bad TeX; the caller shows the source
        return None
    return _element(tree)


def _element(node: Element) -> str:
    """One element and its children, written with only allowed names and escaped values."""
    inner = _text(node.text) + "".join(_element(child) + _text(child.tail) for child in node)
    if node.tag not in MATHML_ELEMENTS:
        return inner  # an element MathML does not know contributes its content only
    attributes = "".join(
        f' {name}="{html.escape(str(value))}"'
        for name, value in node.attrib.items()
        if name in MATHML_ATTRIBUTES
    )
    if node.tag == "math":
        attributes = f' xmlns="{MATHML_NAMESPACE}"' + attributes
    return f"<{node.tag}{attributes}>{inner}</{node.tag}>"


def _text(text: str | None) -> str:
    # latex2mathml writes symbols as character references ('&#x0003C;') in the tree's text
    # and the author's own text as it was typed: resolve the first, then escape all of it.
    return html.escape(html.unescape(text), quote=False) if text else ""
