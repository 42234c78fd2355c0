"""The namespace generated code calls as ``_deploy_rt``: every runtime operator in one place."""

from deploy.rewriters.argument_updates import returned_and_updated, updated_arguments
from deploy.rewriters.bounded_slices import slice_of
from deploy.rewriters.branch_guards import expand
from deploy.rewriters.calls import call, call_method
from deploy.rewriters.casts import (
    bool_,
    divmod_,
    float_,
    float_item,
    full,
    full_like,
    int_,
    item,
    len_,
    linspace,
    math_call,
    matrix_transposed,
    max_,
    min_,
    new_tensor,
    nonempty,
    round_,
    row_of,
    tensor,
    transposed,
)
from deploy.rewriters.choice import pick
from deploy.rewriters.compacted import compact
from deploy.rewriters.counted_rows import flags_of
from deploy.rewriters.full_lists import full_length
from deploy.rewriters.gathers import one_hot, roll, unfold
from deploy.rewriters.generator_tests import all_of, any_of
from deploy.rewriters.in_place import augmented, in_place_method
from deploy.rewriters.kept_rows import kept_entries
from deploy.rewriters.list_builtins import (
    all_,
    any_,
    entries_of,
    list_,
    list_repeat,
    range_,
    repeated,
    returned_list,
    sum_,
)
from deploy.rewriters.logic import and_, compare, equal, kept_test, member, not_, or_
from deploy.rewriters.loop_operators import for_range, while_stmt
from deploy.rewriters.mapped_entries import mapped_entries
from deploy.rewriters.mappings import mapping_get
from deploy.rewriters.nested_lists import chunk, unchunk
from deploy.rewriters.operators import (
    if_expr,
    if_stmt,
    python_predicate,
    python_true,
)
from deploy.rewriters.optional_returns import present, with_presence
from deploy.rewriters.pools import pool
from deploy.rewriters.row_lists import list_append, list_item, list_pop, list_reset
from deploy.rewriters.search_indices import index_bounds, index_within
from deploy.rewriters.sequences import seq_item, seq_len, seq_of, split_step
from deploy.rewriters.size_factories import fftfreq, hann_window, rfftfreq
from deploy.rewriters.slot_lists import compact_slots
from deploy.rewriters.string_keys import string_code, string_key, string_returns
from deploy.rewriters.subscript_stores import delitem, setitem, store
from deploy.rewriters.subscripts import getitem, nonzero_read, truncate
from deploy.rewriters.values import Undefined, append_if, cat, list_truth, stack, take_last
from deploy.rewriters.window_spans import span

__all__ = [
    "Undefined",
    "and_",
    "append_if",
    "augmented",
    "delitem",
    "in_place_method",
    "bool_",
    "call",
    "call_method",
    "chunk",
    "cat",
    "compare",
    "compact",
    "flags_of",
    "compact_slots",
    "equal",
    "float_",
    "float_item",
    "full",
    "full_like",
    "for_range",
    "full_length",
    "fftfreq",
    "hann_window",
    "rfftfreq",
    "getitem",
    "mapping_get",
    "nonzero_read",
    "if_expr",
    "if_stmt",
    "int_",
    "item",
    "kept_test",
    "divmod_",
    "len_",
    "linspace",
    "list_",
    "list_append",
    "list_item",
    "list_pop",
    "list_repeat",
    "returned_list",
    "all_",
    "all_of",
    "any_of",
    "any_",
    "repeated",
    "list_reset",
    "list_truth",
    "math_call",
    "matrix_transposed",
    "max_",
    "min_",
    "member",
    "nonempty",
    "not_",
    "pool",
    "present",
    "with_presence",
    "index_bounds",
    "index_within",
    "one_hot",
    "or_",
    "range_",
    "entries_of",
    "expand",
    "mapped_entries",
    "kept_entries",
    "pick",
    "python_predicate",
    "python_true",
    "round_",
    "roll",
    "row_of",
    "seq_item",
    "seq_len",
    "seq_of",
    "setitem",
    "slice_of",
    "span",
    "split_step",
    "stack",
    "string_code",
    "string_key",
    "string_returns",
    "store",
    "sum_",
    "take_last",
    "tensor",
    "new_tensor",
    "transposed",
    "truncate",
    "unchunk",
    "unfold",
    "updated_arguments",
    "returned_and_updated",
    "while_stmt",
]
