"""WebKit (Safari's engine) at a phone's size: Debian's WebKitGTK MiniBrowser through its WebDriver, on a
virtual display (Xvfb) that the session starts itself, so `make test` needs no wrapper.

Under CI (``CI=true``) a missing WebKit, driver, Xvfb or Selenium is a failure, never a skip.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess

import pytest

from tests.browser.conftest import SHOTS, SHOTS_WANTED
from tests.browser.webkit.phone import COMMAND_TIMEOUT, Phone

DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = next(
    iter(glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser")), "/usr/lib/<arch>/webkit2gtk-4.1/MiniBrowser"
)
SIZE = (390, 844)
# MiniBrowser's window chrome keeps it at least 447 px wide; this GTK style sheet shrinks the chrome.
GTK_CSS = "* { min-width: 0; min-height: 0; padding: 0; margin: 0; font-size: 4px; border-width: 0; }\n"


def _missing() -> str | None:
    for path, package in ((DRIVER, "webkit2gtk-driver"), (MINIBROWSER, "webkit2gtk-driver")):
        if not os.path.exists(path):
            return f"{path} is missing: `make test` installs it (apt-get install {package})"
    if not shutil.which("Xvfb"):
        return "Xvfb is missing: `make test` installs it (apt-get install xvfb)"
    if importlib.util.find_spec("selenium") is None:
        return "Selenium is missing: `make install` installs it (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
def webkit_env(tmp_path_factory):
    """A virtual display of its own and the settings WebKit needs on it; what the driver is started with."""
    missing = _missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x900x24", "-nolisten", "tcp"],
        pass_fds=[write],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as announced:
        display = announced.readline().strip()
    if not display:
        xvfb.kill()
        pytest.fail("Xvfb did not start")
    config = tmp_path_factory.mktemp("webkit-config")
    (config / "gtk-3.0").mkdir()
    (config / "gtk-3.0" / "gtk.css").write_text(GTK_CSS)
    yield {
        **os.environ,
        "DISPLAY": f":{display}",
        "XDG_CONFIG_HOME": str(config),
        # Without it, screenshots come out blank (GPU rendering on a display with no GPU).
        "WEBKIT_SKIA_ENABLE_CPU_RENDERING": "1",
    }
    xvfb.terminate()
    xvfb.wait(timeout=10)


@pytest.fixture
def webkit(webkit_env):
    """Open a WebKit phone (390 x 844, its own cookies and storage): ``webkit("Ann")``. At the end of the
    test, no page any phone showed may have thrown an uncaught error."""
    from selenium import webdriver
    from selenium.webdriver.remote.client_config import ClientConfig
    from selenium.webdriver.remote.remote_connection import RemoteConnection
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    phones: list[Phone] = []
    services: list[Service] = []

    def open_phone(name: str = "phone") -> Phone:
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = Service(DRIVER, env=webkit_env)
        service.start()
        services.append(service)
        config = ClientConfig(remote_server_addr=service.service_url, timeout=COMMAND_TIMEOUT)
        driver = webdriver.Remote(command_executor=RemoteConnection(client_config=config), options=options)
        driver.set_window_size(*SIZE)
        phone = Phone(driver, config, name, SHOTS if SHOTS_WANTED else None)
        phones.append(phone)
        return phone

    yield open_phone
    errors = []
    for phone in phones:
        try:
            errors += [f"{phone.name}: {error}" for error in phone.collect_errors()]
        finally:
            phone.driver.quit()
    for service in services:
        service.stop()
    if errors:
        pytest.fail("uncaught errors on the page:\n" + "\n".join(errors))
