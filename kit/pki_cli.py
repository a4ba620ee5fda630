"""``mafia-table tls``: the local CA and the web pages' certificate (``kit.pki``), made or brought
up to date in one folder; ``scripts/install-pi.sh`` runs it at every install and upgrade.

    mafia-table tls --dir /etc/mafia-table/tls [--name judge.club.lan] [--name 192.168.1.20]
                    [--new-ca]

The certificate names this machine (its host name, ``<host>.local``, ``localhost``, its private
addresses now) and every ``--name``, which is kept in the folder's ``names.txt`` for the next
run. It prints what it made and the CA's fingerprint, which a tablet's trust step compares.
Exit codes: 0 done, 1 a certificate could not be made (the reason is printed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kit import pki


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``tls`` subcommand, with its handler as ``run``."""
    tls = sub.add_parser("tls", help="make the local CA and the web pages' HTTPS certificate "
                                     "(docs/deployment.md)", description=__doc__.split("\n\n")[0])
    tls.set_defaults(run=run)
    tls.add_argument("--dir", required=True, metavar="DIR",
                     help="the folder: ca.crt, ca.key, server.crt, server.key, names.txt")
    tls.add_argument("--name", action="append", default=[], metavar="NAME",
                     help="one more host name or IP address for the certificate (kept in "
                          "names.txt); again for more")
    tls.add_argument("--new-ca", action="store_true",
                     help="replace the CA (every tablet must then trust the new one)")


def run(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    try:
        extra = pki.Names.of(args.name)
        for line in pki.make_web_certificates(folder, pki.this_machine() + extra,
                                              new_ca=args.new_ca):
            print(f"tls: {line}")
        pki.add_extra_names(folder, extra)  # once they are in a certificate
        names = pki.certificate_names(folder / pki.SERVER_CERT)
    except (pki.PkiError, OSError) as exc:
        print(f"mafia-table tls: {exc}", file=sys.stderr)
        return 1
    print(f"tls: the pages' certificate names {', '.join(names.all())}")
    print(f"tls: CA SHA-256 fingerprint {pki.fingerprint(folder / pki.CA_CERT)}")
    return 0
