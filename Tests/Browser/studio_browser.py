"""`framedial studio` driven in headless Chromium: the server started on a free port, Debian's chromium
and chromedriver through Selenium, and the page reads both the browser test (test_studio_page.py) and
the benchmark's browser section (Benchmarks/browser/studio_latency.py) need."""

import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# The browser window (CSS pixels): the device screen fills its height, the panel sits beside it.
WINDOW = (1000, 1000)


class Studio:
    """`framedial studio IMAGE --port 0` as a context manager: started on entry (its printed URL read
    within `timeout` seconds), stopped on exit with SIGTERM, then SIGKILL if it does not end."""

    def __init__(self, binary, image, timeout=120):
        self.errors = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [binary, "studio", image, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=self.errors,
        )
        try:
            self.url = self._read_url(timeout)
        except BaseException:
            self.stop()
            raise

    def _read_url(self, timeout):
        deadline = time.monotonic() + timeout
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, left))
            if not ready:
                raise RuntimeError(f"framedial studio printed no URL in {timeout} s")
            byte = os.read(self.process.stdout.fileno(), 1)
            if not byte:
                raise RuntimeError(f"framedial studio ended before its URL: {self.error_text()}")
            line += byte
        url = line.decode().strip()
        if not url.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"framedial studio printed {url!r}, not its URL")
        return url

    def error_text(self):
        self.errors.seek(0)
        return self.errors.read().decode(errors="replace")

    def get_json(self, path):
        """A GET of the HTTP API, as JSON."""
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=30) as response:
            return json.load(response)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.errors.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


def missing_browser():
    """Why the browser cannot run here (None when chromium and chromedriver are on PATH)."""
    absent = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    if absent:
        return " and ".join(absent) + " not on PATH (scripts/ensure-chromium.sh installs them)"
    return None


def chromium(window=WINDOW):
    """Headless Debian chromium through Debian's chromedriver, at `window` CSS pixels, scale 1."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox cannot start
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={window[0]},{window[1]}",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


# The mean of every sample of a PNG screenshot (base64) of the viewfinder's canvas, decoded in the
# page, leaving out the part the overlay may cover (shown, hidden or fading); null until a frame is
# drawn.
SCREENSHOT_MEAN = """
const [png, done] = arguments;
if (studio.framesShown === 0) return done(null);
const frame = document.getElementById("frame").getBoundingClientRect();
const overlay = document.getElementById("overlay");
const over = overlay.hidden ? null : overlay.getBoundingClientRect();
const image = new Image();
image.onerror = () => done(null);
image.onload = () => {
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const sx = frame.width / canvas.width, sy = frame.height / canvas.height;
  let sum = 0, count = 0;
  for (let y = 0; y < canvas.height; y++) {
    for (let x = 0; x < canvas.width; x++) {
      const px = frame.left + (x + 0.5) * sx, py = frame.top + (y + 0.5) * sy;
      if (over && px >= over.left && px < over.right && py >= over.top && py < over.bottom) continue;
      const i = 4 * (y * canvas.width + x);
      sum += data[i] + data[i + 1] + data[i + 2];
      count += 1;
    }
  }
  done(count ? sum / (3 * count) : null);
};
image.src = "data:image/png;base64," + png;
"""


def frame_mean(driver):
    """The displayed frame's mean sample value (0–255): the pixels on screen where the viewfinder's
    canvas is (a screenshot of it, the overlay's part left out), or None before the first frame."""
    png = driver.find_element("id", "frame").screenshot_as_base64
    return driver.execute_async_script(SCREENSHOT_MEAN, png)


def frames_shown(driver):
    """How many frames the page has drawn on its viewfinder canvas."""
    return driver.execute_script("return studio.framesShown;")


def frame_size(driver):
    """The displayed frame: {"width", "height"} of the last frame drawn (its pixels) and
    {"boxWidth", "boxHeight"}, the size the canvas takes on screen in device pixels."""
    return driver.execute_script(
        "const size = studio.frameSize || {width: 0, height: 0};"
        'const box = document.getElementById("frame").getBoundingClientRect();'
        "const ratio = window.devicePixelRatio || 1;"
        "return {width: size.width, height: size.height,"
        " boxWidth: box.width * ratio, boxHeight: box.height * ratio};"
    )


def open_page(driver, url, timeout=60):
    """Loads the page and waits until it shows its first frame."""
    driver.get(url)
    WebDriverWait(driver, timeout).until(lambda d: frame_mean(d) is not None)


def select_with_keyboard(driver, control, tabs=40):
    """Tabs through the page to the control list's button for `control` (its name, e.g.
    "exposure-bias") and presses Enter, which selects it and moves the focus to its slider."""
    actions = ActionChains(driver)
    for _ in range(tabs):
        if driver.switch_to.active_element.get_attribute("data-name") == control:
            break
        actions.send_keys(Keys.TAB).perform()
    else:
        raise AssertionError(f"Tab never reached the {control} button")
    actions.send_keys(Keys.ENTER).perform()
    WebDriverWait(driver, 10).until(
        lambda d: d.switch_to.active_element.get_attribute("id") == "slider"
    )


def press(driver, key):
    """One key press sent to the focused element."""
    ActionChains(driver).send_keys(key).perform()


def meter(driver):
    """The latency meter as shown: {"p50": text, "p99": text, "samples": text}."""
    return driver.execute_script(
        'const t = (id) => document.getElementById(id).textContent.trim();'
        'return {p50: t("p50"), p99: t("p99"), samples: t("samples")};'
    )


def milliseconds(text):
    """The number in a meter reading such as "12.3 ms"; None when it is not one."""
    value = text.removesuffix("ms").strip()
    try:
        return float(value)
    except ValueError:
        return None
