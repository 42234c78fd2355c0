"""The chain of AST passes, in the order they run. Each is one small unit (see its docstring)."""

from deploy.rewriters.passes.appends import ConditionalAppends
from deploy.rewriters.passes.argument_updates import ArgumentUpdatesRebind
from deploy.rewriters.passes.augmented import AugmentedAssignsRebind
from deploy.rewriters.passes.base import Context, Pass, annotate
from deploy.rewriters.passes.breaks import BreakContinueToFlags
from deploy.rewriters.passes.calls import CallTreeCalls
from deploy.rewriters.passes.conditionals import TernaryToCond
from deploy.rewriters.passes.constant_queues import ConstantQueues
from deploy.rewriters.passes.continues import OneAppendPerIteration
from deploy.rewriters.passes.control_flow import ControlFlowToGraphOps
from deploy.rewriters.passes.deletions import DeletionsToStores
from deploy.rewriters.passes.entry_mutations import EntryMutationsToStores
from deploy.rewriters.passes.fill_rest import FillRestToFlag
from deploy.rewriters.passes.guarded_appends import AppendsAfterBreak
from deploy.rewriters.passes.inline_helpers import InlineListHelpers
from deploy.rewriters.passes.iteration import UnbindLoopsToRange
from deploy.rewriters.passes.list_lengths import ListLengthCounters
from deploy.rewriters.passes.list_loops import ListLoopsToRange
from deploy.rewriters.passes.loop_else import LoopElseToFlag
from deploy.rewriters.passes.loop_exits import ReturnsInLoopsToBreaks
from deploy.rewriters.passes.loop_returns import ReturnsInLoopsToFlags
from deploy.rewriters.passes.loops import AnnotateCounterBounds
from deploy.rewriters.passes.nested_appends import NestedLoopAppends
from deploy.rewriters.passes.optionals import OptionalsToFlags
from deploy.rewriters.passes.predicates import PredicateOperators
from deploy.rewriters.passes.returns import ReturnToElse
from deploy.rewriters.passes.row_lists import ListsReadInTheirLoop
from deploy.rewriters.passes.row_literals import RowLiterals
from deploy.rewriters.passes.search_indices import SearchIndexBounds
from deploy.rewriters.passes.size_choices import SizeChoiceTails
from deploy.rewriters.passes.string_returns import StringReturnsToCodes
from deploy.rewriters.passes.string_states import StringStatesToCodes
from deploy.rewriters.passes.subscript_updates import SubscriptUpdatesToStores
from deploy.rewriters.passes.subscripts import LoopIndexSubscripts
from deploy.rewriters.passes.tail_calls import TailCallsToLoop
from deploy.rewriters.passes.truncations import TruncationsToSlices

# Structural passes first (they reshape the source), then the ones that need liveness.
STRUCTURAL: list[Pass] = [
    TailCallsToLoop(),
    InlineListHelpers(),
    SizeChoiceTails(),
    ArgumentUpdatesRebind(),
    EntryMutationsToStores(),
    SubscriptUpdatesToStores(),
    DeletionsToStores(),
    RowLiterals(),
    ConstantQueues(),
    StringStatesToCodes(),
    StringReturnsToCodes(),
    OptionalsToFlags(),
    TruncationsToSlices(),
    LoopElseToFlag(),
    FillRestToFlag(),
    ReturnsInLoopsToBreaks(),
    UnbindLoopsToRange(),
    ListLoopsToRange(),
    SearchIndexBounds(),
    ListLengthCounters(),
    AnnotateCounterBounds(),
    NestedLoopAppends(),
    ListsReadInTheirLoop(),
    OneAppendPerIteration(),
    ConditionalAppends(),
    ReturnsInLoopsToFlags(),
    ReturnToElse(),
    BreakContinueToFlags(),
    AppendsAfterBreak(),
    CallTreeCalls(),
    LoopIndexSubscripts(),
    PredicateOperators(),
    TernaryToCond(),
    AugmentedAssignsRebind(),
]
# IfToCond, WhileToLoop and ForRangeToLoop in one post-order walk (innermost construct first)
CONTROL_FLOW: list[Pass] = [ControlFlowToGraphOps()]

__all__ = ["CONTROL_FLOW", "STRUCTURAL", "Context", "Pass", "annotate"]
