"""lowprec-map: the generator of Low-Precision RL, a living research map.

Stages, in order: load -> validate -> graph (link) -> rules -> pages/render -> write.
"""

__version__ = "0.1.0"
