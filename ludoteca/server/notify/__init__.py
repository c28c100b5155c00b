"""Telling players it is their turn when they are not looking: Web Push and e-mail.

:mod:`.schemas` holds the JSON bodies (preferences, subscriptions, the push payload),
:mod:`.rows` the tables (push subscriptions, each account's preferences),
:mod:`.push` the Web Push sender (VAPID, RFC 8030/8291/8292, through ``pywebpush``),
:mod:`.mail` the e-mail sender (SMTP, through ``aiosmtplib``) and :mod:`.notifier` the service
that the hub tells of every committed change and that decides who is told what.
"""
