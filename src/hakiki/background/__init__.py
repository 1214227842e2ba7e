"""Background checks (docs/api.md#background-checks): check types and packages per country,
candidate requests with a hosted invitation, automated checks run by Hakiki's own engines and
manual checks worked by the organisation's analysts."""
