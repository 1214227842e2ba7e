"""Counting what several organisations saw so that no single organisation can move the count
by itself (docs/decisions.md#fraud-cross-organisation-inference).

The input is, for one identity number and one kind (names, dates of birth, phones; or, for a
phone, identity numbers), the values each organisation *other than the caller* saw. Two rules:

- **Each organisation vouches for at most one value.** The count of distinct values is the size
  of a maximum matching between organisations and their values: an organisation that told
  twenty different names counts as one organisation that saw something, never as twenty names.
- **No value count rests on a single organisation.** The count is what remains whichever single
  organisation is left out: the smallest matching once any one organisation is removed. One
  organisation's sightings, however many, can therefore never make the count exceed what the
  others saw without it (leaving it out is one of the cases), and can raise it by at most one.

With one value per organisation this is: the number of distinct values, less one when some
value was seen by a single organisation only. Three organisations that saw three different
names count 2; two that saw the same name count 1; one alone counts 0.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping


def corroborated_count(values_by_org: Mapping[str, Collection[str]]) -> int:
    """Distinct values, each organisation vouching for one of its own, that remain whichever
    single organisation is left out."""
    # An organisation with as many values as there are organisations can always be given one
    # the others do not hold, with or without any of them: its other values change nothing, so
    # they are dropped (the work stays quadratic in organisations, whatever one of them sent).
    limit = len(values_by_org)
    adjacency = {
        org: sorted(set(values))[:limit] for org, values in values_by_org.items() if values
    }
    owner: dict[str, str] = {}  # value -> the organisation vouching for it in the matching
    for org in sorted(adjacency):
        _augment(org, adjacency, owner)
    matched = set(owner.values())
    if not matched:
        return 0
    # An organisation left out keeps the matching's size iff another can take its place: it is
    # unmatched, or reachable from an unmatched one by an alternating path (swap along it).
    replaceable = {org for org in adjacency if org not in matched}
    frontier = list(replaceable)
    while frontier:
        org = frontier.pop()
        for value in adjacency[org]:
            holder = owner.get(value)
            if holder is not None and holder not in replaceable:
                replaceable.add(holder)
                frontier.append(holder)
    essential = matched - replaceable  # in every maximum matching: leaving it out costs one
    return len(owner) - (1 if essential else 0)


def _augment(start: str, adjacency: Mapping[str, list[str]], owner: dict[str, str]) -> bool:
    """Kuhn's augmenting path from ``start`` (iterative: no recursion limit on long chains);
    True when the matching grew by one."""
    visited: set[str] = set()
    path: list[tuple[str, str]] = []  # (organisation, the value through which it went deeper)
    stack = [(start, iter(adjacency[start]))]
    while stack:
        org, values = stack[-1]
        for value in values:
            if value in visited:
                continue
            visited.add(value)
            holder = owner.get(value)
            if holder is None:  # a free value: every organisation on the path moves along
                owner[value] = org
                for parent, through in path:
                    owner[through] = parent
                return True
            path.append((org, value))
            stack.append((holder, iter(adjacency[holder])))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return False
