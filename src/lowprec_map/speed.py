"""The mechanisms that exist only for speed, each with a named switch.

A mechanism like these stays while the bench shows that it pays (at least 5 % at the
real content or at 1 000 entries); `python bench/switches.py` turns each off in turn
and prints what it pays today, and regenerates the README's table. Output is the same
with any switch off: that is what makes each one only a matter of speed.

The bench turns switches off through the environment (`LOWPREC_SLOW=fork-pool,...`);
nothing else does.
"""

from __future__ import annotations

import os

SWITCHES = {
    "fork-pool": "a large site's pages rendered on every core by forked workers "
    "(output/parallel.py)",
    "gc-pause": "the cyclic garbage collector paused while loading, linking and rendering "
    "(pipeline.collector_paused)",
    "template-cache": "compiled templates kept between builds in .lowprec-cache "
    "(render._bytecode_cache)",
    "c-yaml": "libyaml's C parser instead of PyYAML's pure-Python one (content/load.py)",
    "drawn-once": "a card or link drawn once and reused on every page that shows it (render._draw)",
    "shared-views": "views several pages show (label counts, newest entries) computed "
    "once per build (reads.Reader.shared)",
}


def on(switch: str) -> bool:
    """Whether the mechanism `switch` (one of SWITCHES) is on: it is unless the
    environment's LOWPREC_SLOW names it."""
    assert switch in SWITCHES, switch
    return switch not in os.environ.get("LOWPREC_SLOW", "").split(",")
