"""Certificates made with Debian's ``openssl``: a local certificate authority and the web pages'
server certificate (the judge's panel, the overlay, the hall board), and the pieces the hall's
bridge certificates are made of (``hall.pki``).

A club has no public name for its Pi, so no public CA will vouch for it; the install makes a CA
of its own (``make_web_certificates``, run by ``scripts/install-pi.sh`` and ``mafia-table tls``)
and each tablet trusts it once (docs/deployment.md). A CA a tablet trusts could vouch for any
site, so this one is **name-constrained**: it may sign only local names (``.local``,
``localhost``, ``.lan``, ``.home.arpa``, ``.internal``, the names given when it was made) and
private addresses (10/8, 172.16/12, 192.168/16, 127/8, link-local, 100.64/10, fc00::/7). Its
key stolen from a Pi cannot vouch for a bank: Chromium, Android and iOS check the constraints.

One folder holds it all::

    ca.crt  ca.key         the CA (10 years; kept across upgrades: tablets trust it)
    server.crt server.key  the pages' certificate (825 days, iOS's limit), made again when the
                           names change, when it has less than 30 days left, or when it no longer
                           matches its key or the CA
    names.txt              more names and addresses the club wants in it, one a line

    made = make_web_certificates(folder, this_machine())   # what it did, line by line
    fingerprint(folder / CA_CERT)                          # what a tablet compares
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
CA_CERT, CA_KEY = "ca.crt", "ca.key"
SERVER_CERT, SERVER_KEY = "server.crt", "server.key"
EXTRA_NAMES = "names.txt"
CA_DAYS = 3650
#: iOS refuses a TLS server certificate valid for longer (support.apple.com/en-us/103769)
SERVER_DAYS = 825
#: a server certificate with less left than this is made again
RENEW_BEFORE_S = 30 * 86400
#: the names and addresses every CA made here may sign
LOCAL_DNS = ("local", "localhost", "lan", "home.arpa", "internal")
PRIVATE_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16",
    "100.64.0.0/10", "fc00::/7", "fe80::/10", "::1/128"))
_DNS_NAME = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]"
                       r"{0,61}[a-z0-9])?)*$")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class PkiError(Exception):
    """A certificate cannot be made or read: the reason, for a person."""


def openssl(*args: str, cwd: Path) -> str:
    """Run ``openssl`` in ``cwd``; its output, or ``PkiError`` with what it said."""
    try:
        done = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True,
                              check=False)
    except FileNotFoundError:
        raise PkiError("openssl is not installed (Debian: apt install openssl)") from None
    if done.returncode != 0:
        raise PkiError(f"openssl {args[0]} failed: {done.stderr.strip()}")
    return done.stdout


@dataclass(frozen=True)
class Names:
    """What a server certificate names: DNS names and IP addresses (normalised)."""

    dns: tuple[str, ...] = ()
    ips: tuple[str, ...] = ()

    @staticmethod
    def of(texts: Iterable[str]) -> Names:
        """Names and addresses in any order; each checked (``PkiError`` names a bad one)."""
        dns: list[str] = []
        ips: list[str] = []
        for text in texts:
            text = text.strip().lower().rstrip(".")
            try:
                ips.append(str(ipaddress.ip_address(text)))
            except ValueError:
                if not _DNS_NAME.match(text):
                    raise PkiError(f"{text!r} is neither a host name nor an IP address") from None
                dns.append(text)
        return Names(tuple(dict.fromkeys(dns)), tuple(dict.fromkeys(ips)))

    def __add__(self, other: Names) -> Names:
        return Names(tuple(dict.fromkeys(self.dns + other.dns)),
                     tuple(dict.fromkeys(self.ips + other.ips)))

    def all(self) -> list[str]:
        return [*self.dns, *self.ips]


def this_machine() -> Names:
    """This machine's names: its host name, ``<host>.local`` (mDNS: avahi on a Pi),
    ``localhost`` and its private addresses now (``hostname -I``; a public one is left out, the
    CA may not sign it)."""
    host = socket.gethostname().lower()
    short = host.split(".")[0]
    texts = [short, f"{short}.local", host, "localhost", "127.0.0.1", "::1"]
    if shutil.which("hostname"):
        shown = subprocess.run(["hostname", "-I"], capture_output=True, text=True, check=False)
        texts += [a for a in shown.stdout.split() if _is_ip(a)
                  and may_sign(((), PRIVATE_NETWORKS), str(ipaddress.ip_address(a)))]
    return Names.of(t for t in texts if _DNS_NAME.match(t) or _is_ip(t))


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def fingerprint(cert: Path) -> str:
    """The certificate's SHA-256 fingerprint as phones and browsers show it (``AB:CD:...``)."""
    der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii"))
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def certificate_names(cert: Path) -> Names:
    """The DNS names and IP addresses a certificate's subjectAltName holds."""
    text = openssl("x509", "-in", str(cert), "-noout", "-ext", "subjectAltName", cwd=cert.parent)
    found = re.findall(r"(DNS|IP Address):([^,\s]+)", text)
    return Names.of(value for _, value in found)


def permitted(ca_cert: Path) -> tuple[tuple[str, ...], tuple[Network, ...]]:
    """What a CA's name constraints permit: DNS suffixes and networks (none: unconstrained)."""
    text = openssl("x509", "-in", str(ca_cert), "-noout", "-ext", "nameConstraints",
                   cwd=ca_cert.parent)
    dns = tuple(re.findall(r"DNS:(\S+)", text))
    networks = []
    for address, mask in re.findall(r"IP:([0-9A-Fa-f.:]+)/([0-9A-Fa-f.:]+)", text):
        prefix = bin(int(ipaddress.ip_address(mask))).count("1")
        networks.append(ipaddress.ip_network(f"{address}/{prefix}"))
    return dns, tuple(networks)


def may_sign(constraints: tuple[tuple[str, ...], tuple[Network, ...]], name: str) -> bool:
    """Whether a CA with these constraints may sign ``name`` (RFC 5280 4.2.1.10)."""
    dns, networks = constraints
    if not dns and not networks:
        return True
    if _is_ip(name):
        address = ipaddress.ip_address(name)
        return any(address.version == n.version and address in n for n in networks)
    return any(name == suffix or name.endswith("." + suffix) for suffix in dns)


def read_extra_names(folder: Path) -> Names:
    """``names.txt``: the names the club added (``#`` comments and blank lines skipped)."""
    path = folder / EXTRA_NAMES
    if not path.exists():
        return Names()
    lines = [line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    try:
        return Names.of(line for line in lines if line)
    except PkiError as exc:
        raise PkiError(f"{path}: {exc}") from None


def add_extra_names(folder: Path, names: Names) -> None:
    """Keep ``names`` in ``names.txt`` (so an upgrade keeps them in the certificate)."""
    new = [n for n in names.all() if n not in read_extra_names(folder).all()]
    if new:
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / EXTRA_NAMES).open("a", encoding="utf-8") as out:
            out.writelines(f"{n}\n" for n in new)


def make_ca(folder: Path, names: Names, *, days: int = CA_DAYS, subject: str = "") -> None:
    """A new CA in ``folder`` (``ca.crt``, ``ca.key``), constrained to local names and private
    addresses, and to ``names`` beyond them."""
    folder.mkdir(parents=True, exist_ok=True)
    dns = [*LOCAL_DNS, *(n for n in names.dns if not may_sign((LOCAL_DNS, ()), n))]
    networks = list(PRIVATE_NETWORKS)
    networks += [ipaddress.ip_network(ip) for ip in names.ips
                 if not may_sign(((), PRIVATE_NETWORKS), ip)]
    constraints = ",".join([*(f"permitted;DNS:{d}" for d in dns),
                            *(f"permitted;IP:{n.network_address}/{n.netmask}" for n in networks)])
    subject = subject or f"/O=mafia-table/CN=mafia-table local CA ({socket.gethostname()})"
    for name in (CA_KEY, CA_CERT):
        (folder / name).unlink(missing_ok=True)
    openssl("req", "-x509", *EC_KEY, "-keyout", CA_KEY, "-out", CA_CERT, "-days", str(days),
            "-subj", subject,
            "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            "-addext", f"nameConstraints=critical,{constraints}", cwd=folder)
    (folder / CA_KEY).chmod(0o600)


def issue(folder: Path, name: str, subject: str, extensions: str, *, days: int,
          ca: Path | None = None) -> None:
    """``<name>.key`` and ``<name>.crt`` in ``folder``, signed by the CA in ``ca`` (default
    ``folder``) with these X.509 ``extensions`` (openssl's extfile lines). Written beside and
    moved into place, so a failure leaves the old pair whole."""
    ca = ca or folder
    key, cert = folder / f"{name}.key", folder / f"{name}.crt"
    work = {"key": f"{name}.key.new", "csr": f"{name}.csr", "ext": f"{name}.ext",
            "crt": f"{name}.crt.new"}
    (folder / work["ext"]).write_text(extensions + "\n", encoding="utf-8")
    try:
        openssl("req", "-new", *EC_KEY, "-keyout", work["key"], "-out", work["csr"],
                "-subj", subject, cwd=folder)
        (folder / work["key"]).chmod(0o600)
        openssl("x509", "-req", "-in", work["csr"], "-CA", str(ca / CA_CERT),
                "-CAkey", str(ca / CA_KEY), "-set_serial", str(secrets.randbits(63)),
                "-out", work["crt"], "-days", str(days), "-extfile", work["ext"], cwd=folder)
        (folder / work["key"]).replace(key)
        (folder / work["crt"]).replace(cert)
    finally:
        for leftover in work.values():
            (folder / leftover).unlink(missing_ok=True)


def make_web_certificates(folder: Path, wanted: Names, *, new_ca: bool = False) -> list[str]:
    """The CA (kept when there is one, unless ``new_ca``) and the server certificate for
    ``wanted`` and ``names.txt``'s names; only what is missing or stale is made. Returns what it
    did, for a person. A name the kept CA may not sign is a ``PkiError`` naming it."""
    done: list[str] = []
    wanted = wanted + read_extra_names(folder)
    if new_ca or not (folder / CA_CERT).exists() or not (folder / CA_KEY).exists():
        make_ca(folder, wanted)
        done.append(f"made a new CA in {folder / CA_CERT}: each tablet trusts it once "
                    "(docs/deployment.md)")
    constraints = permitted(folder / CA_CERT)
    outside = [n for n in wanted.all() if not may_sign(constraints, n)]
    if outside:
        raise PkiError(f"the CA in {folder} may not sign {', '.join(outside)} (it signs only "
                       "the local names and private addresses it was made for); make a new "
                       "one with --new-ca, and every tablet trusts that one again")
    why = _stale(folder, wanted)
    if why is not None:
        extensions = "\n".join([
            "subjectAltName=" + ",".join([*(f"DNS:{d}" for d in wanted.dns),
                                          *(f"IP:{ip}" for ip in wanted.ips)]),
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature",
            "extendedKeyUsage=serverAuth", "subjectKeyIdentifier=hash",
            "authorityKeyIdentifier=keyid"])
        issue(folder, "server", f"/O=mafia-table/CN={(wanted.dns or wanted.ips)[0]}",
              extensions, days=SERVER_DAYS)
        done.append(f"made the pages' certificate ({why}) for {', '.join(wanted.all())}")
    return done


def _stale(folder: Path, wanted: Names) -> str | None:
    """Why the server certificate must be made again, or None when it is good."""
    cert, key = folder / SERVER_CERT, folder / SERVER_KEY
    if not cert.exists() or not key.exists():
        return "there was none"
    have = certificate_names(cert)
    if set(have.all()) != set(wanted.all()):
        return "its names changed"
    try:
        openssl("x509", "-in", SERVER_CERT, "-noout", "-checkend", str(RENEW_BEFORE_S),
                cwd=folder)
    except PkiError:
        return "it expires within 30 days"
    try:
        openssl("verify", "-CAfile", CA_CERT, SERVER_CERT, cwd=folder)
    except PkiError:
        return "the CA is not the one that signed it"
    ours = openssl("x509", "-in", SERVER_CERT, "-noout", "-pubkey", cwd=folder)
    if ours != openssl("pkey", "-in", SERVER_KEY, "-pubout", cwd=folder):
        return "it does not match its key"
    return None
