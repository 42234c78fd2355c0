"""Eager models written the way people write them, each using Python control flow on tensors.

Every module here defines ``CASES``: ``Case(name, model, example, verify, dynamic_shapes)`` where
``verify`` holds inputs that together take every path of the model's control flow.
"""

from tests.rewriters.models import (
    aliasing,
    argument_updates,
    branch_appends,
    branches,
    calls,
    constant_tables,
    counted_whiles,
    counters,
    decoding,
    deletions,
    dispatch,
    exits,
    extra,
    filled_lists,
    flag_lists,
    found_or_defaults,
    growing_grids,
    helper_optionals,
    helper_reads,
    helper_returns,
    idioms,
    in_place,
    indexing,
    iteration,
    length_bounds,
    lifted_inputs,
    list_api,
    list_positions,
    listed_loops,
    lists,
    literals,
    lookups,
    loop_exits,
    loops,
    mapped_entries,
    matched_lengths,
    mixed_rows,
    nested,
    nested_appends,
    nested_for_rows,
    optionals,
    padded_exits,
    padded_rest,
    picked_rows,
    pooling_windows,
    python_loop_appends,
    queues,
    recursion,
    repros,
    row_lists,
    row_literals,
    run_segments,
    run_stacks,
    runtime_sizes,
    segments,
    shapes,
    shared_sizes,
    shrinking,
    size_choices,
    size_values,
    sizes,
    slice_stores,
    sliding_history,
    slot_appends,
    state,
    stratified_layers,
    string_states,
    subscript_updates,
    truthiness,
    two_breaks,
    unbacked_facts,
    unbound_names,
    unrolled_appends,
    work_stacks,
)

CASES = (
    branches.CASES
    + loops.CASES
    + loop_exits.CASES
    + list_api.CASES
    + literals.CASES
    + helper_optionals.CASES
    + stratified_layers.CASES
    + constant_tables.CASES
    + helper_returns.CASES
    + helper_reads.CASES
    + unrolled_appends.CASES
    + optionals.CASES
    + shrinking.CASES
    + size_choices.CASES
    + listed_loops.CASES
    + counted_whiles.CASES
    + mapped_entries.CASES
    + matched_lengths.CASES
    + padded_exits.CASES
    + mixed_rows.CASES
    + found_or_defaults.CASES
    + two_breaks.CASES
    + idioms.CASES
    + truthiness.CASES
    + recursion.CASES
    + row_lists.CASES
    + work_stacks.CASES
    + run_stacks.CASES
    + run_segments.CASES
    + picked_rows.CASES
    + calls.CASES
    + shapes.CASES
    + flag_lists.CASES
    + extra.CASES
    + exits.CASES
    + indexing.CASES
    + state.CASES
    + string_states.CASES
    + decoding.CASES
    + nested.CASES
    + repros.CASES
    + dispatch.CASES
    + iteration.CASES
    + counters.CASES
    + size_values.CASES
    + sliding_history.CASES
    + lifted_inputs.CASES
    + sizes.CASES
    + aliasing.CASES
    + lists.CASES
    + runtime_sizes.CASES
    + unbacked_facts.CASES
    + subscript_updates.CASES
    + length_bounds.CASES
    + row_literals.CASES
    + branch_appends.CASES
    + unbound_names.CASES
    + slot_appends.CASES
    + in_place.CASES
    + python_loop_appends.CASES
    + nested_appends.CASES
    + nested_for_rows.CASES
    + filled_lists.CASES
    + lookups.CASES
    + padded_rest.CASES
    + segments.CASES
    + list_positions.CASES
    + queues.CASES
    + argument_updates.CASES
    + slice_stores.CASES
    + shared_sizes.CASES
    + pooling_windows.CASES
    + deletions.CASES
    + growing_grids.CASES
)
