"""Whether a page fits a screen (issue 28 item 3): what overflows its box, which targets a
finger cannot hit (under 48 CSS px), and which separator a wrapped line starts with, on a
Playwright ``page`` at its present viewport.

    for size in VIEWPORTS:
        page.set_viewport_size(size)
        assert overflowing(page) == [] and small_targets(page) == [] and orphans(page) == []
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: a laptop (1366x768), a tablet in portrait (820x1180) and a phone (390x844): the sizes a
#: club judge tried the panel at (issue 38)
VIEWPORTS = ({"width": 1366, "height": 768}, {"width": 820, "height": 1180},
             {"width": 390, "height": 844})

#: a phone's page as its browser makes it (``browser.new_page(**PHONE)``): 390x844 and, unlike
#: a desktop window made that small, laid out by the page's viewport meta tag (none: 980 px wide,
#: shrunk to the screen)
PHONE: dict[str, Any] = {"viewport": VIEWPORTS[2], "is_mobile": True, "has_touch": True}

#: the smallest side of a touch target, CSS px (WCAG 2.5.5's 44, Material's 48)
TARGET = 48

_OVERFLOWING = """() => {
  const found = [];
  const name = (e) => e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`
    + (e.closest("[data-seat]") ? `[${e.closest("[data-seat]").dataset.seat}]` : "");
  const inScrollBox = (e) => {  // a wide table scrolling inside its own box is meant
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
      if (["auto", "scroll"].includes(getComputedStyle(a).overflowX)) return true;
    return false;
  };
  if (document.documentElement.scrollWidth > innerWidth + 1) found.push(`page ${
    document.documentElement.scrollWidth} > ${innerWidth}`);
  document.querySelectorAll("body *").forEach((e) => {
    if (!e.checkVisibility() || ["SCRIPT", "STYLE", "OPTION"].includes(e.tagName)) return;
    const s = getComputedStyle(e);
    const scrolls = ["auto", "scroll"].includes(s.overflowX);
    if (!scrolls && e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 &&
        s.textOverflow !== "ellipsis") found.push(`${name(e)} ${e.scrollWidth} > ${e.clientWidth}`);
    const r = e.getBoundingClientRect();
    if ((r.right > innerWidth + 1 || r.left < -1) && !inScrollBox(e))
      found.push(`${name(e)} off screen`);
  });
  return found;
}"""

_SMALL = """(least) => [...document.querySelectorAll("button, input, select, a, .seat[data-seat]")]
  .filter((e) => e.checkVisibility())
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([, r]) => r.width < least || r.height < least)
  .map(([e, r]) => `${e.id ? "#" + e.id : e.tagName.toLowerCase() + "." + e.className} ${
    Math.round(r.width)}x${Math.round(r.height)}`)"""

_ORPHANS = """() => {
  const found = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const box = n.parentElement.closest("nav, p, li, div, header, section, td, body");
    if (!n.parentElement.checkVisibility() || !box) continue;
    const edge = box.getBoundingClientRect().left + parseFloat(getComputedStyle(box).paddingLeft);
    for (const m of n.data.matchAll(/·/g)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + 1);
      const at = r.getBoundingClientRect();
      if (at.width > 0 && at.left - edge < 2) found.push(`${box.tagName.toLowerCase()}: ${
        box.textContent.trim().slice(0, 40)}`);
    }
  }
  return found;
}"""


def overflowing(page: Any) -> list[str]:
    """Every visible element whose content is wider than its box (an ellipsis or a scroll box
    is meant), or that lies off the screen, and the page itself if it scrolls sideways."""
    found: list[str] = page.evaluate(_OVERFLOWING)
    return found


_TEXT_SIZE = """(selector) => {
  const size = parseFloat(getComputedStyle(document.querySelector(selector)).fontSize);
  return [size, size * visualViewport.scale];
}"""


def text_size(page: Any, selector: str = "body") -> tuple[float, float]:
    """The font size of ``selector``'s text in CSS px, and as the screen shows it (times the
    page's zoom: a page laid out wider than a phone is shrunk to fit, its letters with it)."""
    size, shown = page.evaluate(_TEXT_SIZE, selector)
    return size, shown


def small_targets(page: Any, least: int = TARGET) -> list[str]:
    """Every visible button, field, link and seat tile smaller than ``least`` px either way."""
    found: list[str] = page.evaluate(_SMALL, least)
    return found


def orphans(page: Any) -> list[str]:
    """Every visible separator "·" that starts a line of its box (a nav wrapped on a phone):
    it reads as a stray mark, separating nothing from what was before it."""
    found: list[str] = page.evaluate(_ORPHANS)
    return found


#: what the judge's panel says of the game's state: the stage, who has the floor, the clock,
#: the vote's window and the night's step (issue 28 item 3: "readable at a glance")
GLANCE = ("#stage", "#floor", "#clock", "#vote", "#night")

#: the height of what stays at the foot of the screen over the page (the panel's bar: sticky or
#: fixed at ``bottom: 0``) when the page is longer than the screen: the first screen shows the
#: page above it only
_FOOT = """(() => {
  if (document.documentElement.scrollHeight <= innerHeight + 1) return 0;
  return Math.max(0, ...[...document.querySelectorAll("body *")].filter((e) => {
    const s = getComputedStyle(e);
    return ["sticky", "fixed"].includes(s.position) && s.bottom === "0px" && e.checkVisibility();
  }).map((e) => e.getBoundingClientRect().height));
})()"""

_OUT_OF_SIGHT = """(selectors) => {
  const foot = innerHeight - FOOT;
  return selectors.filter((s) => {
    const e = document.querySelector(s);
    if (!e || !e.checkVisibility() || !e.textContent.trim()) return false;
    const r = e.getBoundingClientRect();
    return r.top + scrollY < -1 || r.top + scrollY + Math.min(r.height, 96) > foot + 1;
  }).map((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    const [top, bottom] = [r.top + scrollY, r.bottom + scrollY].map(Math.round);
    return `${s} at ${top}..${bottom} of ${Math.round(foot)}`;
  });
}""".replace("FOOT", _FOOT)


def out_of_sight(page: Any, selectors: tuple[str, ...] = GLANCE) -> list[str]:
    """Each of ``selectors`` shown with words in it that the first screen (the page scrolled
    to its top, less what stays at its foot over the page: the panel's bar) does not show, at
    least its first 96 px: what a judge must read at a glance without scrolling for it."""
    found: list[str] = page.evaluate(_OUT_OF_SIGHT, list(selectors))
    return found


_OUT_OF_REACH = """(selector) => {
  scrollTo(0, 0);
  return [...document.querySelectorAll(selector)].filter((e) => e.checkVisibility())
    .filter((e) => {
      const r = e.getBoundingClientRect();
      if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)
        return true;
      const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      return !hit || !(e === hit || e.contains(hit));
    }).map((e) => {
      const r = e.getBoundingClientRect();
      return `#${e.id || e.tagName.toLowerCase()} at ${Math.round(r.top)}..${
        Math.round(r.bottom)} of ${innerHeight}`;
    });
}"""


def out_of_reach(page: Any, selector: str) -> list[str]:
    """Each visible element matching ``selector`` that a finger cannot tap on the first screen
    (the page scrolled to its top): not whole on the screen, or covered by another element."""
    found: list[str] = page.evaluate(_OUT_OF_REACH, selector)
    return found


_LINES = """(selector) => {
  const e = document.querySelector(selector);
  if (!e || !e.checkVisibility() || !e.textContent.trim()) return ["", 0];
  const range = document.createRange();
  range.selectNodeContents(e);
  return [e.textContent, new Set([...range.getClientRects()].filter((r) => r.width > 0)
    .map((r) => Math.round(r.top))).size];
}"""


def lines(page: Any, selector: str) -> tuple[str, int]:
    """The words of the element ``selector`` and how many lines they run on (``("", 0)``: not
    shown), read at once: a clock's words change, and it hides, between two reads."""
    text, count = page.evaluate(_LINES, selector)
    return text, count


_UNITS_APART = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.checkVisibility()).flatMap((e) => {
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), apart = [];
    const top = (node, i) => { const r = document.createRange();
      r.setStart(node, i); r.setEnd(node, i + 1); const box = r.getClientRects()[0];
      return box ? box.top : null; };
    // the digit before the space and the unit after it, as laid out: on lines of their own?
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(/\\d (?:с|s)(?![\\p{L}\\d])/gu)) {
        const digit = top(n, m.index), unit = top(n, m.index + 2);  // none: not laid out
        if (digit !== null && unit !== null && Math.abs(digit - unit) > 1) {
          apart.push(e.textContent);
        }
      }
    }
    return apart;
  })"""


def units_apart(page: Any, selector: str) -> list[str]:
    """The texts of the elements ``selector`` where a number and its unit of seconds are on
    two lines («60» at a line's end, «с)» at the next one's start)."""
    found: list[str] = page.evaluate(_UNITS_APART, selector)
    return found


def fits(page: Any, each: Callable[[], None] | None = None) -> None:
    """The page now fits each of ``VIEWPORTS`` (nothing overflows, no target under 48 px, no
    line starts with a separator), and passes ``each`` (a check of what it shows) at each; the
    viewport is left as it was."""
    was = page.viewport_size
    for size in VIEWPORTS:
        page.set_viewport_size(size)
        found = overflowing(page), small_targets(page), orphans(page)
        assert found == ([], [], []), (size, found)
        if each is not None:
            each()
    if was is not None:
        page.set_viewport_size(was)


_CUT_CHOICES = """() => [...document.querySelectorAll("select:not([multiple])")]
  .filter((s) => s.checkVisibility() && s.selectedOptions.length)
  .flatMap((s) => {
    // the same list holding the chosen card only, as wide as it needs to show it whole
    const probe = s.cloneNode(false);
    probe.removeAttribute("id");
    probe.appendChild(new Option(s.selectedOptions[0].text));
    probe.style.cssText = "position: absolute; visibility: hidden; width: max-content; " +
      "min-width: 0; max-width: none";
    s.parentElement.appendChild(probe);
    const need = probe.getBoundingClientRect().width;
    probe.remove();
    const has = s.getBoundingClientRect().width;
    const seat = s.closest("[data-seat]");
    return need > has + 1 ? [`${s.id ? "#" + s.id : "select." + s.className}${
      seat ? `[${seat.dataset.seat}]` : ""} "${s.selectedOptions[0].text}" ${
      Math.round(need)} > ${Math.round(has)}`] : [];
  })"""


def cut_choices(page: Any) -> list[str]:
    """Every visible drop-down list whose chosen item it cannot show whole (``мирный жит…``):
    the width the list would need for that item alone, against its own."""
    found: list[str] = page.evaluate(_CUT_CHOICES)
    return found
