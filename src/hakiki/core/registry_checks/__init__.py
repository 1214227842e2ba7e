"""Registry checks that can answer PENDING (KYB, vehicle, tax): one table, one way to finish.

A check's call stores its row (request and answer encrypted) in ``registry_checks``; a PENDING
one is finished by the look-up still under way or by the durable completion job, both through
``completion.finalise``: the conditional update from pending, the reversal of a charge that
bought no billable answer, and the verification.completed / .failed event, in one transaction.
Each category registers a :class:`~hakiki.core.registry_checks.kinds.CheckKind`: how to ask its
registry again and how to conclude from the answer (domain logic stays in the domain).
"""
