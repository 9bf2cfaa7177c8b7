"""`framedial studio`'s page in headless Chromium: the real binary on a free port, the exposure slider
moved with the keyboard, the displayed frame measured in the page, the latency meter and `/stats` read,
and a screenshot saved as a test artefact (.build/test-artefacts/studio.png)."""

import os
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import studio_browser

REPOSITORY = Path(__file__).resolve().parents[2]
SCREENSHOT = REPOSITORY / ".build" / "test-artefacts" / "studio.png"
PHOTO = REPOSITORY / "SampleImages" / "rocket.jpg"
PRESSES = 8
# The test whose page is kept as the screenshot: the slider moved, the meter reading.
SCREENSHOT_TEST = "test_keyboard_slide_on_exposure_brightens_the_frame_and_the_meter_shows_numbers"


@pytest.fixture(scope="module")
def framedial_binary():
    """$FRAMEDIAL_BINARY, else the checkout's debug build, else its release build."""
    candidates = [os.environ.get("FRAMEDIAL_BINARY", "")]
    candidates += [str(REPOSITORY / ".build" / kind / "framedial") for kind in ("debug", "release")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail("no framedial binary: build FrameDial (swift build) or set FRAMEDIAL_BINARY")


# Run before the page's own script: a browser whose canvases cannot move to a worker.
NO_OFFSCREEN_CANVAS = "delete HTMLCanvasElement.prototype.transferControlToOffscreen;"


@pytest.fixture
def page(framedial_binary, request):
    """The studio on the sample photo and a headless Chromium showing its page. The keyboard test's
    page, as it ends (passed or failed), is saved as the screenshot artefact. A test marked
    `before_page` gets that script run in the page before the page's own."""
    missing = studio_browser.missing_browser()
    if missing:
        pytest.fail(missing)
    with studio_browser.Studio(framedial_binary, str(PHOTO)) as studio:
        driver = studio_browser.chromium()
        try:
            marker = request.node.get_closest_marker("before_page")
            if marker:
                driver.execute_cdp_cmd(
                    "Page.addScriptToEvaluateOnNewDocument", {"source": marker.args[0]}
                )
            studio_browser.open_page(driver, studio.url)
            yield studio, driver
        finally:
            if request.node.name == SCREENSHOT_TEST:
                SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(SCREENSHOT))
                print(f"screenshot of the studio page: {SCREENSHOT}")
            driver.quit()


def test_keyboard_slide_on_exposure_brightens_the_frame_and_the_meter_shows_numbers(page):
    studio, driver = page
    before = studio_browser.frame_mean(driver)
    first_frame = studio_browser.frames_shown(driver)
    studio_browser.select_with_keyboard(driver, "exposure-bias")
    slider = driver.switch_to.active_element
    assert slider.get_attribute("aria-valuenow") == "0"
    for _ in range(PRESSES):
        studio_browser.press(driver, Keys.ARROW_UP)

    # The slider shows each new value at once and sends it; once the last one reached the server, the
    # frame follows when the server has rendered it.
    WebDriverWait(driver, 10).until(
        lambda _: float(slider.get_attribute("aria-valuenow")) > 0
        and studio.get_json("/state")["exposureBias"]
        == pytest.approx(float(slider.get_attribute("aria-valuenow"))),
        message="the slider's value never reached the server",
    )
    assert studio.get_json("/state")["exposureBias"] >= 1, "eight presses move exposure ≥ 1 EV"
    WebDriverWait(driver, 30).until(
        lambda d: studio_browser.frames_shown(d) > first_frame
        and studio_browser.frame_mean(d) > before + 20,
        message=f"the displayed frame never got brighter than its mean {before:.1f}",
    )
    after = studio_browser.frame_mean(driver)
    print(f"displayed frame's mean: {before:.1f} → {after:.1f}")
    assert after > before + 20, f"mean {before:.1f} → {after:.1f}"

    # The meter: numbers in milliseconds and a sample count, once a frame showing a key press is on
    # screen.
    WebDriverWait(driver, 30).until(lambda d: int(studio_browser.meter(d)["samples"]) > 0)
    reading = studio_browser.meter(driver)
    p50 = studio_browser.milliseconds(reading["p50"])
    p99 = studio_browser.milliseconds(reading["p99"])
    assert p50 is not None and p50 > 0, reading
    assert p99 is not None and p99 >= p50, reading
    assert reading["p50"].endswith(" ms") and reading["p99"].endswith(" ms"), reading

    # The server got the page's reports: /stats counts as many samples as the meter, and it timed
    # the renders (the first frame and at least one after the key presses).
    WebDriverWait(driver, 10).until(
        lambda d: studio.get_json("/stats")["samples"] == int(studio_browser.meter(d)["samples"]),
        message="/stats never counted the samples the meter shows",
    )
    stats = studio.get_json("/stats")
    assert stats["samples"] > 0, stats
    assert stats["p50Ms"] > 0 and stats["p99Ms"] >= stats["p50Ms"], stats
    assert stats["renderSamples"] >= 2 and stats["renderP50Ms"] > 0, stats


def test_frames_come_at_the_size_the_page_shows_the_viewfinder(page):
    _, driver = page
    canvas = driver.find_element("id", "frame")
    assert canvas.get_attribute("role") == "img"
    assert canvas.get_attribute("aria-label") == "The processed viewfinder"
    # The page told the server its displayed size; the frame drawn is the source (1206 px wide in the
    # iPhone 16 Pro viewfinder) scaled to fit that box, so it is smaller than the viewfinder's own.
    WebDriverWait(driver, 30).until(
        lambda d: abs(studio_browser.frame_size(d)["width"] - studio_browser.frame_size(d)["boxWidth"])
        <= 1,
        message=f"frame never drawn at its displayed size: {studio_browser.frame_size(driver)}",
    )
    size = studio_browser.frame_size(driver)
    print(f"displayed frame: {size}")
    assert size["width"] < 1206, size
    assert abs(size["height"] - size["boxHeight"]) <= 1, size


def test_a_drag_near_a_prominent_value_lands_on_it(page):
    """A drag is a user's slide: near exposure's prominent 0 EV (within 2 % of its −8 … +8 range) it
    lands on 0, as the Camera Control model lands it; farther away it stays where the pointer is."""
    studio, driver = page
    studio_browser.select_with_keyboard(driver, "exposure-bias")
    slider = driver.find_element("id", "slider")

    def drag_to(value):
        # Position p (0 at the bottom, 1 at the top) of `value` on the linear −8 … +8 scale.
        position = (value + 8) / 16
        height = slider.size["height"]
        offset_y = round(height / 2 - position * height)  # from the element's centre, down positive
        ActionChains(driver).move_to_element(slider).click_and_hold().move_by_offset(
            0, offset_y
        ).release().perform()

    drag_to(1.5)
    WebDriverWait(driver, 10).until(
        lambda _: abs(studio.get_json("/state")["exposureBias"] - 1.5) < 0.1,
        message="a drag to +1.5 EV did not reach the server",
    )
    drag_to(0.2)
    WebDriverWait(driver, 10).until(
        lambda _: studio.get_json("/state")["exposureBias"] == 0,
        message=f"a drag to +0.2 EV did not land on 0: {studio.get_json('/state')}",
    )
    WebDriverWait(driver, 10).until(lambda _: slider.get_attribute("aria-valuenow") == "0")


@pytest.mark.before_page(NO_OFFSCREEN_CANVAS)
def test_without_offscreen_canvas_the_page_draws_the_frames_itself(page):
    """Where a canvas cannot move to a worker, the worker still holds the WebSocket and decodes, and
    the page draws: the slide still brightens the displayed frame, and the meter still measures."""
    studio, driver = page
    offscreen = "return 'transferControlToOffscreen' in HTMLCanvasElement.prototype;"
    assert driver.execute_script(offscreen) is False
    before = studio_browser.frame_mean(driver)
    studio_browser.select_with_keyboard(driver, "exposure-bias")
    for _ in range(PRESSES):
        studio_browser.press(driver, Keys.ARROW_UP)
    WebDriverWait(driver, 30).until(
        lambda d: studio_browser.frame_mean(d) > before + 20,
        message=f"the displayed frame never got brighter than its mean {before:.1f}",
    )
    WebDriverWait(driver, 30).until(lambda d: int(studio_browser.meter(d)["samples"]) > 0)
    assert studio_browser.milliseconds(studio_browser.meter(driver)["p50"]) > 0
