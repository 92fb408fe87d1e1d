"""The lock question on a phone (390 px): a table locked part-way is asked how its result counts,
each choice in one sentence, prorated chosen; an adjusted score without its reason is refused
beside the field with the choice kept; the standings then say how the number was reached."""

from playwright.sync_api import expect

from tests.browser.conftest import as_director, assert_fits, enter_hand

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def test_the_lock_question_offers_three_choices_and_keeps_them_on_a_refusal(server, phone, shot):
    director = phone(viewport={"width": 390, "height": 844})
    as_director(director, server, "/director/")
    director.goto(server + "/director/events/new")
    director.fill("#name", "Short Crates")
    director.fill("#players", "\n".join(PLAYERS))
    expect(director.locator("#withdrawn_ranked")).to_have_value("with-the-rest")
    director.click("button:has-text('Create the event')")
    expect(director.locator("#tables")).not_to_be_empty(timeout=30_000)
    director.click("button:has-text('Seat round 1')")
    expect(director.locator(".director-tables tbody tr")).to_have_count(2)
    table_url = director.locator(".director-tables tbody tr >> nth=0 >> a").get_attribute("href")
    enter_hand(phone(), f"{server}{table_url}", 1, ["", "K", "8", "A"])

    director.goto(director.url.split("#")[0])
    director.locator(".director-tables tbody tr >> nth=0 >> button:has-text('Lock')").click()
    question = director.locator(".lock-question")
    expect(question).to_be_in_viewport()
    expect(question).to_contain_text("Prorated (the default)")
    expect(question).to_contain_text("× 71 ÷ 8 cards")
    expect(question).to_contain_text("Counted as missed")
    expect(question).to_contain_text("Adjusted:")
    expect(question.locator("input[value=prorated]")).to_be_checked()
    assert_fits(director, "lock question at 390")
    shot(director, "phone-lock-question-choices")

    question.locator("input[value=adjusted]").check()
    director.click("button:has-text('Lock it as it stands')")
    refused = director.locator(".lock-question")
    expect(refused.locator(".error")).to_contain_text("An adjusted score needs its reason")
    expect(refused.locator("input[value=adjusted]")).to_be_checked()
    expect(refused.locator(".error")).to_be_in_viewport()
    shot(director, "phone-lock-question-refused")

    refused.locator("input[value=missed]").check()
    director.click("button:has-text('Lock it as it stands')")
    expect(director.locator(".flash.ok")).to_contain_text("locked")
    expect(director.locator(".director-tables td.progress").first).to_have_text(
        "locked after hand 1 of 15, counted as missed"
    )
    expect(director.locator(".event-history")).to_contain_text("locked after hand 1 of 15, counted as missed")
