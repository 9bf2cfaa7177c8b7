"""pytest settings of the studio's browser tests."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "before_page(script): JavaScript run in the page before the page's own script"
    )
