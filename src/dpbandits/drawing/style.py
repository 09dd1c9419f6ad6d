"""One visual identity per algorithm for every figure: colour, marker and line styles, print settings.

Colours come from seaborn's colour-blind-safe ``colorblind`` palette (its yellow, unreadable as a thin line
on white, left out); non-private reference algorithms (UCB, OD-LinBAI) are black. ``ORDER`` fixes the
identities of the known algorithms so that every built-in private algorithm of a kind has its own colour (the
palette's nine, then the first colours of ``EXTRA``); a private algorithm added to the registry later (a plugin)
gets the next colour of ``EXTRA``, which keeps clear of every built-in colour, and the next marker of its group,
deterministically (sorted by name).
Line styles tell variants and epsilons of one algorithm apart; dotted lines are theory bounds only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import registry

# seaborn.color_palette("colorblind") without its yellow (#ece133)
PALETTE = ("#0173b2", "#de8f05", "#029e73", "#d55e00", "#cc78bc", "#56b4e9", "#ca9161", "#fbafe4", "#949494")
REFERENCE = "#000000"  # non-private algorithms
# Colours of the built-in private algorithms past the palette's nine, then of those outside ORDER (plugins): from
# seaborn's "dark" and matplotlib's Dark2, Set1 and tab20b palettes, each at CIELAB distance >= MIN_DISTANCE from
# every PALETTE colour, from black and from each other (the PALETTE colours are >= 20 apart), readable as thin
# lines (L* <= 70, chroma >= 20).
EXTRA = (
    "#001c7f",
    "#12711c",
    "#8c0800",
    "#592f0d",
    "#006374",
    "#e7298a",
    "#66a61e",
    "#e41a1c",
    "#393b79",
    "#6b6ecf",
    "#9c9ede",
    "#637939",
    "#bd9e39",
    "#ad494a",
)
MIN_DISTANCE = 25.0
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
LINESTYLES = ("-", "--", "-.", (0, (6, 1.5, 1, 1.5, 1, 1.5)), (0, (10, 3)), (0, (3, 1.5)))
BOUND = ":"  # theory bounds, in the colour of their curve

# per (kind, private): the known algorithms in the order they take the palette
ORDER = {
    ("regret", True): (
        "dp_ucb_int",
        "dp_ucb_tossou",
        "dp_ucb_bound",
        "private_ucb",
        "dp_se",
        "dp_ucb",
        "dp_se2",
        "dp_se2_modified",
        "anytime_lazy_ucb",
        "lazy_dp_ts",
        "adap_klucb",
        "adap_ucb",
        "ldp_ucb",
        "dp_klucb",
        "dp_imed",
        "dp_ts_ucb",
    ),
    ("regret", False): ("ucb", "kl_ucb", "thompson", "imed"),
    ("bai", True): ("dp_bai", "dp_bai_gauss", "baseline_bai", "dp_od"),
}

ONE_COLUMN, TWO_COLUMN = 3.4, 7.0  # figure widths in inches of a one- and a two-column paper
DPI = 300
RC = {
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "savefig.dpi": DPI,
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "lines.linewidth": 1.2,
    "lines.markersize": 3.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.5,
}


@dataclass(frozen=True)
class Identity:
    colour: str
    marker: str
    label: str


def identity(name: str) -> Identity:
    """Colour, marker and display label of a registered algorithm; the same in every figure."""
    alg = registry.get(name)
    known = ORDER.get((alg.kind, alg.private), ())
    group = sorted(
        a.name
        for a in registry.ALGORITHMS.values()
        if (a.kind, a.private) == (alg.kind, alg.private) and a.name not in known
    )
    i = known.index(name) if name in known else len(known) + group.index(name)
    # built-in colours: the palette, then EXTRA's first colours; plugins take the EXTRA colours after them
    builtin = [*PALETTE, *EXTRA][: max(len(known), len(PALETTE))]
    if not alg.private:
        colour = REFERENCE
    elif name in known:
        colour = builtin[i]
    else:
        spare = EXTRA[len(builtin) - len(PALETTE) :]
        colour = spare[group.index(name) % len(spare)]
    return Identity(colour, MARKERS[i % len(MARKERS)], alg.label)


def line_styles(keys) -> dict:
    """{key: line style} for the distinct ``keys`` in order; the empty key (the primary curve) is solid."""
    keys = list(dict.fromkeys(keys))
    ordered = ([""] if "" in keys else []) + [k for k in keys if k != ""]
    return {k: LINESTYLES[i % len(LINESTYLES)] for i, k in enumerate(ordered)}


def save(mfig, pdf: str, png: str) -> None:
    """Write ``mfig`` as a PDF with embedded TrueType (Type 42) fonts and as a PNG at print resolution."""
    import matplotlib.pyplot as plt

    with plt.rc_context({"pdf.fonttype": 42, "ps.fonttype": 42}):
        mfig.savefig(pdf)
        mfig.savefig(png, dpi=DPI)
