"""Examples of the KYB answers, shown in the OpenAPI document: what the sandbox gives for the
request examples (docs/sandbox.md#kyb); tests/test_openapi_examples.py validates them."""

from __future__ import annotations

from typing import Any

# POST /v3/kyb/business with BusinessRequest's example: KE golden number PVT-KYB00000.
BUSINESS_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82efahv95jgt7dt3v7x60",
    "live": False,
    "reference": "ref_sbx_dfee6d600a911103e3834e84",
    "billing": {
        "charged": False,
        "amount": 0,
        "currency": "KES",
        "transaction_id": None,
        "reversal_transaction_id": None,
    },
    "ok": True,
    "response_code": "00",
    "status": "VERIFIED",
    "found": True,
    "soft_error": False,
    "async_pending": False,
    "message": "Business found in the register.",
    "provider": "hakiki-sandbox",
    "data": {
        "status": "FOUND",
        "state": "completed",
        "query": {
            "country": "KE",
            "registration_number": "PVT-KYB00000",
            "registration_format": "KE-BRS-2015",
            "implied_entity_type": "private_company",
            "lei": None,
            "name": None,
        },
        "source": {
            "provider": "hakiki-sandbox",
            "registry": "Hakiki sandbox register (fictional)",
            "detail": None,
        },
        "company": {
            "name": "Mlima Fresh Produce Limited",
            "registration_number": "PVT-KYB00000",
            "country": "KE",
            "entity_type": "private_company",
            "status": "registered",
            "registry_status": "Registered",
            "registration_date": "2003-03-31",
            "dissolution_date": None,
            "address": {"text": "Oginga Odinga Street, Kisumu", "country": "KE", "post_code": None},
            "identifiers": [],
            "source_url": None,
        },
    },
}

# POST /v3/kyb/ownership with OwnershipRequest's example: KE PVT-KYB00020, AML digit 2: the
# second director is the sandbox's sanctioned person.
OWNERSHIP_RESULT: dict[str, Any] = {
    "request_id": "req_06h0p82efahv95jgt7dt3v7x60",
    "live": False,
    "reference": "ref_sbx_ae069afd08144bed365912d1",
    "billing": {
        "charged": False,
        "amount": 0,
        "currency": "KES",
        "transaction_id": None,
        "reversal_transaction_id": None,
    },
    "ok": True,
    "response_code": "00",
    "status": "VERIFIED",
    "found": True,
    "soft_error": False,
    "async_pending": False,
    "message": "Business found in the register.",
    "provider": "hakiki-sandbox",
    "data": {
        "status": "FOUND",
        "state": "completed",
        "query": {
            "country": "KE",
            "registration_number": "PVT-KYB00020",
            "registration_format": "KE-BRS-2015",
            "implied_entity_type": "private_company",
            "lei": None,
            "name": None,
        },
        "source": {
            "provider": "hakiki-sandbox",
            "registry": "Hakiki sandbox register (fictional)",
            "detail": None,
        },
        "company": {
            "name": "Mlima Fresh Produce Limited",
            "registration_number": "PVT-KYB00020",
            "country": "KE",
            "entity_type": "private_company",
            "status": "registered",
            "registry_status": "Registered",
            "registration_date": "2008-09-23",
            "dissolution_date": None,
            "address": {"text": "Kenyatta Avenue, Nairobi", "country": "KE", "post_code": None},
            "identifiers": [],
            "source_url": None,
        },
        "ownership": {
            "directors": [
                {
                    "name": "Wanjiru Akinyi Kamau",
                    "kind": "person",
                    "nationality": "KE",
                    "aml": {
                        "subject_key": (
                            "37138f479af015a2fc506ec173e29994eefa80dc79231b0ebb80b6826d717876"
                        ),
                        "checks": ["sanction", "pep"],
                        "threshold": 0.8,
                        "screened_name": "Wanjiru Akinyi Kamau",
                        "hits": [],
                        "lists": [
                            {
                                "code": "sandbox_sanction",
                                "title": "Sandbox sanctions list",
                                "version": "sandbox",
                                "checks": ["sanction"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                            {
                                "code": "sandbox_pep",
                                "title": "Sandbox PEP list",
                                "version": "sandbox",
                                "checks": ["pep"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                        ],
                        "unavailable": [],
                        "suppressed": [],
                        "outcomes": [
                            {
                                "check": "sanction",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_sanction"],
                            },
                            {
                                "check": "pep",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_pep"],
                            },
                        ],
                        "status": "CLEAR",
                        "complete": True,
                    },
                    "role": "director",
                    "appointed_on": None,
                },
                {
                    "name": "Sandbox Sanction Person",
                    "kind": "person",
                    "nationality": "KE",
                    "aml": {
                        "subject_key": (
                            "c30e138386c28a2fc18178d02d47dcda0c2df53efbbea77389d0cfc242fad3bc"
                        ),
                        "checks": ["sanction", "pep"],
                        "threshold": 0.8,
                        "screened_name": "Sandbox Sanction Person",
                        "hits": [
                            {
                                "check": "sanction",
                                "list_code": "sandbox_sanction",
                                "list_version": "sandbox",
                                "programs": ["SANDBOX"],
                                "entity_id": "sbx-s-1",
                                "entity_name": "Sandbox Sanction Person",
                                "entity_schema": "Person",
                                "matched_name": "Sandbox Sanction Person",
                                "matched_name_kind": "primary",
                                "score": 0.95,
                                "explanation": {
                                    "name": {
                                        "score": 1.0,
                                        "reason": "3 "
                                        "of "
                                        "3 "
                                        "list-name "
                                        "parts "
                                        "matched "
                                        "('sandbox' "
                                        "exact, "
                                        "'sanction' "
                                        "exact, "
                                        "'person' "
                                        "exact)",
                                    },
                                    "country": {
                                        "score": 0.0,
                                        "effect": -0.05,
                                        "reason": "no country in common (query ke; list ng)",
                                    },
                                },
                                "entity_fingerprint": "f90f23613b34e1732bff",
                                "review": None,
                                "media": None,
                                "pep": None,
                            }
                        ],
                        "lists": [
                            {
                                "code": "sandbox_sanction",
                                "title": "Sandbox sanctions list",
                                "version": "sandbox",
                                "checks": ["sanction"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                            {
                                "code": "sandbox_pep",
                                "title": "Sandbox PEP list",
                                "version": "sandbox",
                                "checks": ["pep"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                        ],
                        "unavailable": [],
                        "suppressed": [],
                        "outcomes": [
                            {
                                "check": "sanction",
                                "outcome": "hits",
                                "reason": None,
                                "lists": ["sandbox_sanction"],
                            },
                            {
                                "check": "pep",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_pep"],
                            },
                        ],
                        "status": "POTENTIAL_MATCH",
                        "complete": True,
                    },
                    "role": "director",
                    "appointed_on": None,
                },
            ],
            "shareholders": [
                {
                    "name": "Wanjiru Akinyi Kamau",
                    "kind": "person",
                    "nationality": "KE",
                    "aml": {
                        "subject_key": (
                            "37138f479af015a2fc506ec173e29994eefa80dc79231b0ebb80b6826d717876"
                        ),
                        "checks": ["sanction", "pep"],
                        "threshold": 0.8,
                        "screened_name": "Wanjiru Akinyi Kamau",
                        "hits": [],
                        "lists": [
                            {
                                "code": "sandbox_sanction",
                                "title": "Sandbox sanctions list",
                                "version": "sandbox",
                                "checks": ["sanction"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                            {
                                "code": "sandbox_pep",
                                "title": "Sandbox PEP list",
                                "version": "sandbox",
                                "checks": ["pep"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                        ],
                        "unavailable": [],
                        "suppressed": [],
                        "outcomes": [
                            {
                                "check": "sanction",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_sanction"],
                            },
                            {
                                "check": "pep",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_pep"],
                            },
                        ],
                        "status": "CLEAR",
                        "complete": True,
                    },
                    "shares": 600,
                    "share_class": "ordinary",
                    "percentage": 60.0,
                },
                {
                    "name": "Sandbox Sanction Person",
                    "kind": "person",
                    "nationality": "KE",
                    "aml": {
                        "subject_key": (
                            "c30e138386c28a2fc18178d02d47dcda0c2df53efbbea77389d0cfc242fad3bc"
                        ),
                        "checks": ["sanction", "pep"],
                        "threshold": 0.8,
                        "screened_name": "Sandbox Sanction Person",
                        "hits": [
                            {
                                "check": "sanction",
                                "list_code": "sandbox_sanction",
                                "list_version": "sandbox",
                                "programs": ["SANDBOX"],
                                "entity_id": "sbx-s-1",
                                "entity_name": "Sandbox Sanction Person",
                                "entity_schema": "Person",
                                "matched_name": "Sandbox Sanction Person",
                                "matched_name_kind": "primary",
                                "score": 0.95,
                                "explanation": {
                                    "name": {
                                        "score": 1.0,
                                        "reason": "3 "
                                        "of "
                                        "3 "
                                        "list-name "
                                        "parts "
                                        "matched "
                                        "('sandbox' "
                                        "exact, "
                                        "'sanction' "
                                        "exact, "
                                        "'person' "
                                        "exact)",
                                    },
                                    "country": {
                                        "score": 0.0,
                                        "effect": -0.05,
                                        "reason": "no country in common (query ke; list ng)",
                                    },
                                },
                                "entity_fingerprint": "f90f23613b34e1732bff",
                                "review": None,
                                "media": None,
                                "pep": None,
                            }
                        ],
                        "lists": [
                            {
                                "code": "sandbox_sanction",
                                "title": "Sandbox sanctions list",
                                "version": "sandbox",
                                "checks": ["sanction"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                            {
                                "code": "sandbox_pep",
                                "title": "Sandbox PEP list",
                                "version": "sandbox",
                                "checks": ["pep"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                        ],
                        "unavailable": [],
                        "suppressed": [],
                        "outcomes": [
                            {
                                "check": "sanction",
                                "outcome": "hits",
                                "reason": None,
                                "lists": ["sandbox_sanction"],
                            },
                            {
                                "check": "pep",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_pep"],
                            },
                        ],
                        "status": "POTENTIAL_MATCH",
                        "complete": True,
                    },
                    "shares": 400,
                    "share_class": "ordinary",
                    "percentage": 40.0,
                },
            ],
            "beneficial_owners": [
                {
                    "name": "Wanjiru Akinyi Kamau",
                    "kind": "person",
                    "nationality": "KE",
                    "aml": {
                        "subject_key": (
                            "37138f479af015a2fc506ec173e29994eefa80dc79231b0ebb80b6826d717876"
                        ),
                        "checks": ["sanction", "pep"],
                        "threshold": 0.8,
                        "screened_name": "Wanjiru Akinyi Kamau",
                        "hits": [],
                        "lists": [
                            {
                                "code": "sandbox_sanction",
                                "title": "Sandbox sanctions list",
                                "version": "sandbox",
                                "checks": ["sanction"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                            {
                                "code": "sandbox_pep",
                                "title": "Sandbox PEP list",
                                "version": "sandbox",
                                "checks": ["pep"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                        ],
                        "unavailable": [],
                        "suppressed": [],
                        "outcomes": [
                            {
                                "check": "sanction",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_sanction"],
                            },
                            {
                                "check": "pep",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_pep"],
                            },
                        ],
                        "status": "CLEAR",
                        "complete": True,
                    },
                    "percentage": 60.0,
                    "interests": ["shareholding", "votingRights"],
                    "direct": True,
                },
                {
                    "name": "Sandbox Sanction Person",
                    "kind": "person",
                    "nationality": "KE",
                    "aml": {
                        "subject_key": (
                            "c30e138386c28a2fc18178d02d47dcda0c2df53efbbea77389d0cfc242fad3bc"
                        ),
                        "checks": ["sanction", "pep"],
                        "threshold": 0.8,
                        "screened_name": "Sandbox Sanction Person",
                        "hits": [
                            {
                                "check": "sanction",
                                "list_code": "sandbox_sanction",
                                "list_version": "sandbox",
                                "programs": ["SANDBOX"],
                                "entity_id": "sbx-s-1",
                                "entity_name": "Sandbox Sanction Person",
                                "entity_schema": "Person",
                                "matched_name": "Sandbox Sanction Person",
                                "matched_name_kind": "primary",
                                "score": 0.95,
                                "explanation": {
                                    "name": {
                                        "score": 1.0,
                                        "reason": "3 "
                                        "of "
                                        "3 "
                                        "list-name "
                                        "parts "
                                        "matched "
                                        "('sandbox' "
                                        "exact, "
                                        "'sanction' "
                                        "exact, "
                                        "'person' "
                                        "exact)",
                                    },
                                    "country": {
                                        "score": 0.0,
                                        "effect": -0.05,
                                        "reason": "no country in common (query ke; list ng)",
                                    },
                                },
                                "entity_fingerprint": "f90f23613b34e1732bff",
                                "review": None,
                                "media": None,
                                "pep": None,
                            }
                        ],
                        "lists": [
                            {
                                "code": "sandbox_sanction",
                                "title": "Sandbox sanctions list",
                                "version": "sandbox",
                                "checks": ["sanction"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                            {
                                "code": "sandbox_pep",
                                "title": "Sandbox PEP list",
                                "version": "sandbox",
                                "checks": ["pep"],
                                "licence": None,
                                "published": "2026-11-27",
                                "age_days": 0,
                                "stale": False,
                            },
                        ],
                        "unavailable": [],
                        "suppressed": [],
                        "outcomes": [
                            {
                                "check": "sanction",
                                "outcome": "hits",
                                "reason": None,
                                "lists": ["sandbox_sanction"],
                            },
                            {
                                "check": "pep",
                                "outcome": "clear",
                                "reason": None,
                                "lists": ["sandbox_pep"],
                            },
                        ],
                        "status": "POTENTIAL_MATCH",
                        "complete": True,
                    },
                    "percentage": 40.0,
                    "interests": ["shareholding", "votingRights"],
                    "direct": True,
                },
            ],
            "parents": [],
            "share_capital": "KES 100,000 in 1,000 ordinary shares of KES 100",
            "notes": ["Sandbox: a fictional register entry."],
        },
        "screening": {
            "status": "POTENTIAL_MATCH",
            "parties_screened": 2,
            "hits": 1,
            "parties_with_hits": ["Sandbox Sanction Person"],
            "unavailable": [],
        },
        "bods": [
            {
                "statementId": "f9b422695ee65729a2e4b4f85704ecd4cb60bcf08250d497da68c64e5cbf6590",
                "statementDate": "2026-01-01",
                "publicationDetails": {
                    "publicationDate": "2026-01-01",
                    "bodsVersion": "0.4",
                    "publisher": {"name": "Hakiki"},
                },
                "source": {
                    "type": ["thirdParty"],
                    "description": "Hakiki sandbox register (fictional)",
                },
                "declarationSubject": "KE-PVT-KYB00020",
                "recordId": "KE-PVT-KYB00020",
                "recordType": "entity",
                "recordStatus": "new",
                "recordDetails": {
                    "isComponent": False,
                    "entityType": {"type": "registeredEntity", "details": "private_company"},
                    "name": "Mlima Fresh Produce Limited",
                    "jurisdiction": {"code": "KE"},
                    "identifiers": [{"id": "PVT-KYB00020", "schemeName": "KE company register"}],
                    "foundingDate": "2008-09-23",
                    "addresses": [
                        {
                            "type": "registered",
                            "address": "Kenyatta Avenue, Nairobi",
                            "country": {"code": "KE"},
                        }
                    ],
                },
            },
            {
                "statementId": "c8cc1b55acf9a313dbcd4a286214844e9eec457e36d1bd0b2f282b02e9434820",
                "statementDate": "2026-01-01",
                "publicationDetails": {
                    "publicationDate": "2026-01-01",
                    "bodsVersion": "0.4",
                    "publisher": {"name": "Hakiki"},
                },
                "source": {
                    "type": ["thirdParty"],
                    "description": "Hakiki sandbox register (fictional)",
                },
                "declarationSubject": "KE-PVT-KYB00020",
                "recordId": "KE-PVT-KYB00020/person/33bbc4eddab23a60",
                "recordType": "person",
                "recordStatus": "new",
                "recordDetails": {
                    "isComponent": False,
                    "personType": "knownPerson",
                    "names": [{"type": "legal", "fullName": "Wanjiru Akinyi Kamau"}],
                    "nationalities": [{"code": "KE"}],
                },
            },
            {
                "statementId": "59a5d4a2ca3f467fdfeee9ac62ba5e85e43ef114b8066f40cff99c4c81077704",
                "statementDate": "2026-01-01",
                "publicationDetails": {
                    "publicationDate": "2026-01-01",
                    "bodsVersion": "0.4",
                    "publisher": {"name": "Hakiki"},
                },
                "source": {
                    "type": ["thirdParty"],
                    "description": "Hakiki sandbox register (fictional)",
                },
                "declarationSubject": "KE-PVT-KYB00020",
                "recordId": "KE-PVT-KYB00020/person/d12d8b1ddc117001",
                "recordType": "person",
                "recordStatus": "new",
                "recordDetails": {
                    "isComponent": False,
                    "personType": "knownPerson",
                    "names": [{"type": "legal", "fullName": "Sandbox Sanction Person"}],
                    "nationalities": [{"code": "KE"}],
                },
            },
            {
                "statementId": "415356abab01febb947d9ad6c28c9811ab914e9beffda89c21aa4d63c3a4c8cd",
                "statementDate": "2026-01-01",
                "publicationDetails": {
                    "publicationDate": "2026-01-01",
                    "bodsVersion": "0.4",
                    "publisher": {"name": "Hakiki"},
                },
                "source": {
                    "type": ["thirdParty"],
                    "description": "Hakiki sandbox register (fictional)",
                },
                "declarationSubject": "KE-PVT-KYB00020",
                "recordId": "KE-PVT-KYB00020/person/33bbc4eddab23a60/relationship",
                "recordType": "relationship",
                "recordStatus": "new",
                "recordDetails": {
                    "isComponent": False,
                    "subject": "KE-PVT-KYB00020",
                    "interestedParty": "KE-PVT-KYB00020/person/33bbc4eddab23a60",
                    "interests": [
                        {
                            "type": "boardMember",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": False,
                            "details": "director",
                        },
                        {
                            "type": "shareholding",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": False,
                            "share": {"exact": 60.0},
                            "details": "600 shares",
                        },
                        {
                            "type": "shareholding",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": True,
                            "share": {"exact": 60.0},
                        },
                        {
                            "type": "votingRights",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": True,
                            "share": {"exact": 60.0},
                        },
                    ],
                },
            },
            {
                "statementId": "254cb1457564a07dbd2d0e62c7c2c398b52824078ac351bd58657d4a5f791a6a",
                "statementDate": "2026-01-01",
                "publicationDetails": {
                    "publicationDate": "2026-01-01",
                    "bodsVersion": "0.4",
                    "publisher": {"name": "Hakiki"},
                },
                "source": {
                    "type": ["thirdParty"],
                    "description": "Hakiki sandbox register (fictional)",
                },
                "declarationSubject": "KE-PVT-KYB00020",
                "recordId": "KE-PVT-KYB00020/person/d12d8b1ddc117001/relationship",
                "recordType": "relationship",
                "recordStatus": "new",
                "recordDetails": {
                    "isComponent": False,
                    "subject": "KE-PVT-KYB00020",
                    "interestedParty": "KE-PVT-KYB00020/person/d12d8b1ddc117001",
                    "interests": [
                        {
                            "type": "boardMember",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": False,
                            "details": "director",
                        },
                        {
                            "type": "shareholding",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": False,
                            "share": {"exact": 40.0},
                            "details": "400 shares",
                        },
                        {
                            "type": "shareholding",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": True,
                            "share": {"exact": 40.0},
                        },
                        {
                            "type": "votingRights",
                            "directOrIndirect": "direct",
                            "beneficialOwnershipOrControl": True,
                            "share": {"exact": 40.0},
                        },
                    ],
                },
            },
        ],
    },
}
