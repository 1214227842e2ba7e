"""Signed webhooks (Standard Webhooks): endpoints per organisation and environment, events
emitted in the business transaction, deliveries run as durable jobs with a log of attempts."""
