"""The channels that tell a player what happened at his table while he is away (issue 19;
service/notices.py has the `Notice` and the `Channel` they share): Web Push (push.py, its keys
in vapid.py) and e-mail (mail.py, its letters in letters.py). They use the store, the protocol
and service/notices.py, never the API; the app makes them and hands them to the service."""
