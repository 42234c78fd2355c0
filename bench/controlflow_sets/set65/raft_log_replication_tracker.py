"""Raft consensus: one round of log replication from the leader, as a tensor program.

Logs are stored as term numbers per slot (0 = empty).  For every follower the leader backs off
its nextIndex until the follower's log agrees at the previous index (with the "skip the whole
conflicting term" optimisation), then overwrites the follower's suffix.  Followers whose RTT
exceeds the election timeout are unreachable this round.  Finally the leader advances its
commit index to the highest index stored on a majority -- but only on an entry from its own
current term (Raft's figure-8 safety rule), walking back otherwise.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def find_match(leader_log, follower_log, follower_len):
    """Returns (match index, rejected AppendEntries count)."""
    next_idx = leader_log.shape[0]
    rejections = 0
    while next_idx > 0 and (next_idx > follower_len or follower_log[next_idx - 1] != leader_log[next_idx - 1]):
        if next_idx <= follower_len:
            conflict_term = follower_log[next_idx - 1]
            # follower reports the first index of the conflicting term: skip it in one round trip
            while next_idx > 1 and follower_log[next_idx - 2] == conflict_term:
                next_idx -= 1
        next_idx -= 1
        rejections += 1
    return next_idx, rejections


def commit_index(match, leader_log, current_term, commit_before):
    n_nodes = match.shape[0] + 1  # followers + leader
    replicated = torch.cat([match, torch.tensor([leader_log.shape[0]])])
    ranked = torch.sort(replicated, descending=True).values
    n = ranked[n_nodes // 2]  # highest index present on a majority
    while n > commit_before and leader_log[n - 1] != current_term:
        n = n - 1
    if n < commit_before:
        n = commit_before  # the commit index never moves backwards
    return n


class RaftReplicator(nn.Module):
    def __init__(self, election_timeout_ms=150.0):
        super().__init__()
        self.election_timeout_ms = election_timeout_ms

    def forward(self, leader_log, follower_logs, follower_lens, rtt_ms, commit_before):
        current_term = leader_log[-1]
        matches, repaired, rejects = [], [], []
        for f in range(follower_logs.shape[0]):
            if rtt_ms[f] > self.election_timeout_ms:
                matches.append(torch.zeros((), dtype=torch.long))
                repaired.append(follower_logs[f])
                rejects.append(torch.zeros((), dtype=torch.long))
                continue
            m, r = find_match(leader_log, follower_logs[f], follower_lens[f])
            matches.append(torch.tensor(m))
            repaired.append(torch.cat([follower_logs[f][:m], leader_log[m:]]))
            rejects.append(torch.tensor(r))
        match = torch.stack(matches)
        commit = commit_index(match, leader_log, current_term, commit_before)
        return match, commit, torch.stack(repaired), torch.stack(rejects)


def model():
    return RaftReplicator().eval()


def _log(terms, length):
    t = torch.zeros(length, dtype=torch.long)
    t[: len(terms)] = torch.tensor(terms, dtype=torch.long)
    return t


def _case(leader, followers, rtts, commit_before):
    L = len(leader)
    return (torch.tensor(leader, dtype=torch.long),
            torch.stack([_log(f, L) for f in followers]),
            torch.tensor([len(f) for f in followers], dtype=torch.long),
            torch.tensor(rtts),
            torch.tensor(commit_before, dtype=torch.long))


def example_inputs():
    return _case([1, 1, 2, 2, 3, 3, 3],
                 [[1, 1, 2, 2, 3, 3, 3],     # in sync: back-off loop runs 0 times
                  [1, 1, 2, 2],              # lagging: several length rejections
                  [1, 1, 2, 2, 2, 2]],       # stale term-2 suffix: conflicting-term skip
                 [12.0, 30.0, 25.0], 2)


def dynamic_shapes():
    slots = Dim("slots", min=2, max=256)
    nodes = Dim("followers", min=2, max=16)
    return ({0: slots}, {0: nodes, 1: slots}, {0: nodes}, {0: nodes}, None)


def verify_inputs():
    return [
        # sync / lagging / conflicting followers; majority index 4 holds a term-2 entry ->
        # commit walks back to the previous commit index 2
        example_inputs(),
        # one follower unreachable (continue); one empty log (back off to 0);
        # majority index 4 holds a current-term entry -> commit 4 directly
        _case([1, 2, 2, 4, 4],
              [[1, 2, 2, 4], [], [1, 2], [1, 2, 2, 4, 4]],
              [20.0, 40.0, 500.0, 35.0], 2),
        # figure-8 case: majority stores index 3 (term 2), leader's term is 4 -> walk back to 1
        _case([1, 2, 2, 4],
              [[1, 2, 2], [1, 2, 2], [1, 3, 3, 3], [1]],
              [10.0, 10.0, 10.0, 10.0], 1),
        # two followers, both in sync, commit everything
        _case([2, 2, 3], [[2, 2, 3], [2, 2, 3]], [5.0, 6.0], 0),
        # freshly elected leader, both followers unreachable: majority index 0 < previous commit -> keep 1
        _case([1, 1, 2], [[1, 1], [1]], [400.0, 900.0], 1),
    ]
