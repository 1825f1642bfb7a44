"""The channels that tell a player who is away (service/notices.py `Channel`): Web Push here
(push.py, its keys in vapid.py), e-mail beside it. They use the store, the protocol and the
service's notices, never the API; the app makes them and hands them to the service."""
