"""A study in the browser, as docs/web.md describes it: Ann makes an unlisted study with two
chapters, then on the first plays a line with a variation, writes a comment, marks a move and
draws an arrow (right-drag with Shift: red); Bob, signed in and following the study's page,
sees each of them arrive without reloading, and the board goes where Ann goes; a guest opens
the unlisted link and sees the chapter as it now is, with nothing to edit; Ann makes the study
private and the guest is refused it with a sentence."""

from __future__ import annotations

from typing import Any

from ..support.browser import point, shot
from .test_browser_challenges import sign_up, visit


def moves(page: Any) -> list[str]:
    texts: list[str] = page.locator("#tree button.move").all_inner_texts()
    return texts


def until(page: Any, condition: str) -> None:
    page.wait_for_function(condition, timeout=15_000)


def right_drag(page: Any, start: str, end: str, modifier: str | None = None) -> None:
    """Draw on the board with the right button from point ``start`` to ``end``."""
    a = point(page, start).locator(".hit").bounding_box()
    b = point(page, end).locator(".hit").bounding_box()
    if modifier:
        page.keyboard.down(modifier)
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down(button="right")
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=4)
    page.mouse.up(button="right")
    if modifier:
        page.keyboard.up(modifier)


#: the tree's moves as a page shows them
SHOWN = "[...document.querySelectorAll('#tree button.move')]"


def test_a_study_made_annotated_and_followed_live(server: str, people: list[Any]) -> None:
    ann, bob, guest = people
    sign_up(ann, server, "Ann")
    sign_up(bob, server, "Bob")

    # Ann makes an unlisted study of Nine Men's Morris, then a second chapter, of Felli
    visit(ann, server + "/studies")
    ann.fill("#study-title", "Mills for the club")
    ann.select_option("#study-visibility", "unlisted")
    ann.fill("#study-game", "morris")
    ann.click("#study-create")
    ann.wait_for_url("**/study/*")
    ann.wait_for_selector("html[data-ready]")
    ann.wait_for_selector("#board .pt")
    link = ann.url
    ann.fill("#new-chapter-name", "Felli endings")
    ann.fill("#new-chapter-game", "felli")
    ann.click("#new-chapter-add")
    until(ann, "document.querySelectorAll('#chapters button.chapter').length === 2")
    assert ann.locator("#chapters button.chapter").all_inner_texts() == [
        "Chapter 1",
        "Felli endings",
    ]
    ann.click('#chapters button.chapter:text-is("Chapter 1")')
    until(ann, "document.querySelector('#chapters button.current')?.innerText === 'Chapter 1'")
    until(ann, "document.querySelectorAll('#board .pt').length === 24")  # Morris's board

    # Bob opens the link: a reader, following
    visit(bob, link)
    assert bob.locator("#follow").is_checked()
    assert bob.locator("#new-chapter").is_hidden() and bob.locator("#annotate").is_hidden()
    assert bob.locator("#chapters button.chapter").count() == 2

    # Ann plays 1. d2 f4, then the variation 1... b4
    point(ann, "d2").click()
    until(ann, "document.querySelector('#tree button.move.current')?.innerText === '1. d2'")
    point(ann, "f4").click()
    until(ann, "document.querySelector('#tree button.move.current')?.innerText === 'f4'")
    until(bob, f"{SHOWN}.map(b => b.innerText).join(' ') === '1. d2 f4'")
    until(bob, "document.querySelector('#tree button.move.current')?.innerText === 'f4'")
    ann.click('#tree button.move:text-is("1. d2")')
    until(ann, "document.querySelector('#tree button.move.current')?.innerText === '1. d2'")
    point(ann, "b4").click()
    ann.wait_for_selector("#tree .variation button.move.current")
    bob.wait_for_selector('#tree .variation button.move:text-is("1... b4")')
    until(
        bob,
        "document.querySelector('#tree .variation button.move.current')?.innerText === '1... b4'",
    )
    assert bob.locator('#board .pt[data-name="b4"]').get_attribute("data-piece")

    # back on 1. d2: a comment, a mark, and a red arrow from d2 to d1
    ann.click('#tree button.move:text-is("1. d2")')
    until(ann, "document.querySelector('#tree button.move.current')?.innerText === '1. d2'")
    ann.fill("#comment-text", "Take the centre first.")
    ann.click("#comment-save")
    ann.click('#annotate button.mark[data-mark="!"]')
    until(ann, "document.querySelector('#tree button.move.current')?.innerText === '1. d2!'")
    right_drag(ann, "d2", "d1", "Shift")
    ann.wait_for_selector("#board .arrows .arrow.shape.red", state="attached")
    right_drag(ann, "f4", "f4")  # a green circle
    ann.wait_for_selector("#board .arrows circle.arrow.shape.green", state="attached")

    # Bob sees each of them, on the same move
    bob.wait_for_selector('#tree span.comment:text-is("Take the centre first.")')
    until(bob, "document.querySelector('#tree button.move.current')?.innerText === '1. d2!'")
    bob.wait_for_selector("#board .arrows .arrow.shape.red", state="attached")
    bob.wait_for_selector("#board .arrows circle.arrow.shape.green", state="attached")
    assert moves(bob) == ["1. d2!", "f4", "1... b4"]
    shot(bob, "study-followed")

    # a guest opens the unlisted link: the chapter as it is, nothing to edit
    visit(guest, link)
    guest.wait_for_selector('#tree span.comment:text-is("Take the centre first.")')
    assert moves(guest) == ["1. d2!", "f4", "1... b4"]
    assert guest.locator("#new-chapter").is_hidden() and guest.locator("#settings").is_hidden()
    assert guest.locator("#annotate").is_hidden()
    export = guest.request.get(server + guest.get_attribute("#export-chapter", "href"))
    assert "1. d2! {[%cal Rd2-d1] [%csl Gf4] Take the centre first.} f4 (1... b4) *" in " ".join(
        export.text().split()
    )

    # Ann makes it private: the guest is refused it, in a sentence
    ann.select_option("#settings-visibility", "private")
    ann.click("#settings-save")
    ann.wait_for_selector("#notice.good:not([hidden])")
    answer = guest.goto(link)
    assert answer.status == 403
    assert "this study is private" in guest.inner_text("#refusal")
