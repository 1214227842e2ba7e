"""Scaled mode (``HAKIKI_JOBS_BACKEND=procrastinate``): the same tasks and ``enqueue``, with the
jobs in procrastinate's tables on PostgreSQL and ``hakiki worker`` processes running them."""
