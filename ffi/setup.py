"""Build step of `pip install ./ffi`: bundles the repository's libekoc.so.

When the checkout holds a built library (../build/libekoc.so, or the file
named by EKOC_LIB at install time), it is copied into the package as
ekoc/lib/libekoc.so, so the installed package works on its own. The
checkout's build directory is also recorded (ekoc/lib/REPO_BUILD) as the last
place to look. Set EKOC_BUNDLE_LIB=0 to skip the copy (the package then uses
EKOC_LIB or the recorded build directory at run time). Everything else is in
pyproject.toml.
"""

import os
import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent


class BuildPy(build_py):
    def run(self):
        super().run()
        dest = pathlib.Path(self.build_lib) / "ekoc" / "lib"
        dest.mkdir(parents=True, exist_ok=True)
        build_dir = HERE.parent / "build"
        source = pathlib.Path(os.environ["EKOC_LIB"]) if os.environ.get("EKOC_LIB") else build_dir / "libekoc.so"
        bundle = os.environ.get("EKOC_BUNDLE_LIB") or "1"
        if bundle not in ("0", "1"):
            raise SystemExit(f"ekoc: EKOC_BUNDLE_LIB={bundle!r}: the environment variable EKOC_BUNDLE_LIB must be "
                             "'0' (do not bundle libekoc.so) or '1' (bundle it, the default)")
        if os.environ.get("EKOC_LIB") and not source.is_file():
            raise SystemExit(f"ekoc: EKOC_LIB={str(source)!r} does not name an existing file (unset it to bundle "
                             f"{build_dir / 'libekoc.so'})")
        if bundle == "1" and source.is_file():
            shutil.copy2(source, dest / "libekoc.so")
            print(f"ekoc: bundled {source}")
        else:
            print(f"ekoc: no library bundled ({source} absent or EKOC_BUNDLE_LIB=0)")
        if build_dir.is_dir():
            (dest / "REPO_BUILD").write_text(str(build_dir) + "\n")


setup(cmdclass={"build_py": BuildPy})
