"""The hall's broker as shipped: mosquitto on config/mosquitto/'s mafia.conf and mafia.acl (its
accounts, its TLS listener with certificates from ``hall.pki``), paths and ports moved into a
test's folder, so a test asks the shipped ACL who may do what."""

from __future__ import annotations

import subprocess
from pathlib import Path

from controller import config as config_module
from hall.pki import make_certificates
from kit.local_broker import LocalBroker, free_port
from tests.support.mqtt import Subscriber
from tests.support.paths import REPO
from tests.support.table_configs import SMALL_TABLE, write_config

SHIPPED = REPO / "config" / "mosquitto"
USERS = ("t1", "t1-events", "t2", "rules-core", "observer", "technician")


class Hall:
    """mosquitto on the shipped mafia.conf and mafia.acl, with paths and ports in a temp dir."""

    def __init__(self, root: Path):
        self.root = root
        self.port, self.tls_port = free_port(), free_port()
        # as scripts/install-pi.sh installs it for its table (the events account is per table)
        (root / "mafia.acl").write_text((SHIPPED / "mafia.acl").read_text().replace("table-1",
                                                                                  "t1"))
        passwd = root / "mafia.passwd"
        for user in USERS:
            subprocess.run(["mosquitto_passwd", "-b", *(["-c"] if user == USERS[0] else []),
                            str(passwd), user, self.password(user)], check=True)
        passwd.chmod(0o600)
        make_certificates(root / "certs", ["t1"])
        text = (SHIPPED / "mafia.conf").read_text()
        text = text.replace("/etc/mosquitto/", f"{root}/")
        text = text.replace("listener 1883 127.0.0.1", f"listener {self.port} 127.0.0.1")
        text = text.replace("listener 8883", f"listener {self.tls_port}")
        assert str(root) in text and str(self.tls_port) in text  # the shipped file still fits
        self.broker = LocalBroker(self.port, config=text, workdir=root / "broker")

    @staticmethod
    def password(user: str) -> str:
        return f"secret-of-{user}"

    def client(self, user: str, topics: list[str] | None = None, client_id: str = "",
               persistent: bool = False) -> Subscriber:
        return Subscriber(self.port, topics or [], auth=(user, self.password(user)),
                          client_id=client_id, persistent=persistent)

    def table_config(self, table: str = "t1", *, tls: bool = False,
                     events: bool = False) -> config_module.Config:
        (self.root / f"{table}.pass").write_text(self.password(table) + "\n")
        body = SMALL_TABLE.format(port=self.tls_port if tls else self.port).replace(
            'table = "t1"', f'table = "{table}"')
        broker = f'    username = "{table}"\n    password_file = "{table}.pass"\n'
        if events:  # the events' own account, whose password is the table's
            (self.root / f"{table}-events.pass").write_text(self.password(f"{table}-events"))
            broker += (f'    events_username = "{table}-events"\n'
                       f'    events_password_file = "{table}-events.pass"\n')
        if tls:
            broker += ('    [broker.tls]\n    ca_file = "certs/ca.crt"\n'
                       '    cert_file = "certs/t1.crt"\n    key_file = "certs/t1.key"\n')
        body = body.replace("    keepalive = 5\n", "    keepalive = 5\n" + broker)
        return config_module.load(write_config(self.root, body, f"{table}.toml"))
