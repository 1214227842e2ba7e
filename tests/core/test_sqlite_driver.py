"""The one-hop SQLite adaptation behaves like SQLAlchemy's own for everything we use."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from hakiki.core.database import create_database, transaction
from hakiki.core.settings import Settings
from hakiki.core.sqlite_driver import OneHopDbapi


async def test_statements_rows_counts_and_errors(tmp_path: Path) -> None:
    db = create_database(Settings(data_dir=tmp_path, secret_key="k" * 40))
    try:
        assert isinstance(db.writer.dialect.dbapi, OneHopDbapi)
        async with transaction(db) as conn:
            await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)"))
            inserted = await conn.execute(
                text("INSERT INTO t (v) VALUES (:v)"), [{"v": "a"}, {"v": "b"}, {"v": "c"}]
            )
            assert inserted.rowcount == 3
            single = await conn.execute(text("INSERT INTO t (v) VALUES ('d')"))
            assert single.lastrowid == 4
            updated = await conn.execute(
                text("UPDATE t SET v = v || '!' WHERE id <= 2 RETURNING id, v")
            )
            assert sorted(updated.all()) == [(1, "a!"), (2, "b!")]
            changed = await conn.execute(text("UPDATE t SET v = 'x' WHERE id = 99"))
            assert changed.rowcount == 0
        async with db.reader.connect() as conn:
            rows = (await conn.execute(text("SELECT v FROM t ORDER BY id"))).scalars().all()
            assert rows == ["a!", "b!", "c", "d"]
            assert (await conn.execute(text("SELECT v FROM t WHERE id = 3"))).scalar_one() == "c"
        with pytest.raises(IntegrityError):
            async with transaction(db) as conn:
                await conn.execute(text("INSERT INTO t (v) VALUES ('c')"))
        async with db.reader.connect() as conn:  # the failed transaction left nothing behind
            assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar_one() == 4
    finally:
        await db.dispose()
