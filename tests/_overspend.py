"""The readings of the built-in algorithms that spend more privacy than promised, as docs/privacy.md explains:
the tests hold every other reading to its promise and these above it."""

#: readings that spend more than their algorithm promises at the contract's setting (docs/privacy.md says why);
#: (algorithm, parameter, value), the parameter None for the default reading
OVERSPEND = {
    ("dp_ucb_int", None, None),  # each interval's release is a fresh Laplace release of the prefix mean
    ("dp_ucb_int", "int_update", "literal"),
    ("dp_ucb_int", "int_update", "live_bonus"),
    ("dp_ucb_int", "int_update", "scheduled"),
    ("dp_ucb_int", "eps_log", "log10"),
    ("dp_ucb_int", "eps_log", "log2"),
    ("dp_ucb_bound", "hybrid_split", "none"),  # both halves of the hybrid counter get the whole epsilon
    ("dp_ucb_tossou", "hybrid_split", "none"),
}
