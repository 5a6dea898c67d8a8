EXPORT = {"taken_at": "2024-04-30T22:00:00Z", "source": "netbox"}
