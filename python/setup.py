"""The wheel's tag: the package holds no Python extension module, but libFrameDialC.so and the Swift
runtime built for this machine (copied into framedial/lib by scripts/python-install.sh), so the wheel
fits any Python 3 (py3, ABI none) on this platform only (e.g. linux_x86_64), not every platform."""

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel


class PlatformWheel(bdist_wheel):
    """A wheel tagged py3-none-PLATFORM."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self) -> "tuple[str, str, str]":
        return "py3", "none", super().get_tag()[2]


setup(cmdclass={"bdist_wheel": PlatformWheel})
