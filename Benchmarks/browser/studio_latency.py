"""The benchmark's browser section (framedial-bench --only browser runs it): slider-to-displayed-frame
latency of `framedial studio` in headless Chromium.

Starts `FRAMEDIAL studio IMAGE --port 0`, opens the page, selects exposure with the keyboard and sends
EVENTS arrow-key presses at RATE a second (exposure sweeping up and down), each a real key event that
Chromium dispatches to the page. The page measures every latency itself (input event → the frame showing
that change on screen) and shows it on its meter; this script reads those latencies from the page and
the frames' render times (pixels; pixels and the RGBA copy the page gets) from the server's /stats, and
prints one JSON document.

usage: studio_latency.py FRAMEDIAL IMAGE EVENTS RATE
"""

import json
import os
import sys
import time

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser")
)
import studio_browser  # noqa: E402

# Key presses each way before the sweep turns (each press moves exposure 1 % of its range).
SWEEP = 25
# Key presses before the timed ones, so the page, its script and the renderer are warm.
WARMUP = 10


def latencies(driver):
    """Every latency the page measured so far, in milliseconds (the values its meter summarises)."""
    return driver.execute_script("return studio.latencies.slice();")


def settled(driver, studio, timeout=30, quiet=2.0):
    """Waits until every change sent has been shown in a frame and the server has every latency the
    page measured, or until no new latency came for `quiet` seconds (a change the server found equal
    to its state makes no frame); returns how many changes no frame showed."""
    deadline = time.monotonic() + timeout
    count, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        pending = driver.execute_script("return studio.sentAt.size;")
        measured = len(latencies(driver))
        if measured != count:
            count, since = measured, time.monotonic()
        reported = studio.get_json("/stats")["samples"] == measured
        if reported and (pending == 0 or time.monotonic() - since > quiet):
            return pending
        time.sleep(0.05)
    raise RuntimeError(f"the page never settled in {timeout} s")


def main(framedial, image, events, rate):
    with studio_browser.Studio(framedial, image) as studio:
        driver = studio_browser.chromium()
        try:
            studio_browser.open_page(driver, studio.url)
            studio_browser.select_with_keyboard(driver, "exposure-bias")
            for _ in range(WARMUP):
                studio_browser.press(driver, Keys.ARROW_UP)
            settled(driver, studio)
            warm = len(latencies(driver))
            interval = 1 / rate
            start = time.monotonic()
            for index in range(events):
                due = start + index * interval
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                # Down first (the warm-up went up): SWEEP presses down, 2 × SWEEP up, … around +/-.
                up = ((index + SWEEP) // (2 * SWEEP)) % 2 == 1
                studio_browser.press(driver, Keys.ARROW_UP if up else Keys.ARROW_DOWN)
            seconds = time.monotonic() - start
            unshown = settled(driver, studio)
            measured = latencies(driver)[warm:]
            stats = studio.get_json("/stats")
            frame = studio_browser.frame_size(driver)
            result = {
                "browser": driver.capabilities.get("browserVersion", "?"),
                "events": events,
                "eventsPerSecond": events / seconds,
                "latenciesMs": measured,
                "unshownChanges": unshown,
                "renderP50Ms": stats["renderP50Ms"],
                "renderP99Ms": stats["renderP99Ms"],
                "renderSamples": stats["renderSamples"],
                "frameP50Ms": stats["frameP50Ms"],
                "frameP99Ms": stats["frameP99Ms"],
                "frameWidth": frame["width"],
                "frameHeight": frame["height"],
            }
        finally:
            driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    missing = studio_browser.missing_browser()
    if missing:
        sys.exit(missing)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
