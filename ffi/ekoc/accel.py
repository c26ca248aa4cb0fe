"""Zero-code-change acceleration of eko by ekoc.

    python -m ekoc.accel script.py [args...]    # run a script accelerated
    import ekoc.accel                            # in a script, before eko computes
    %load_ext ekoc.accel                         # in IPython / Jupyter

Importing this module installs the hook (see ekoc._accel): eko.solve then
runs on ekoc when ekoc supports the runcards and on eko otherwise, with one
log line ("ekoc.accel: ...") saying which and why.
"""

import sys

from ._accel import install, is_installed, load_ipython_extension, main, uninstall, unload_ipython_extension, write_eko

__all__ = ["install", "is_installed", "load_ipython_extension", "main", "uninstall", "unload_ipython_extension",
           "write_eko"]

if __name__ == "__main__":
    sys.exit(main())  # installs the hook (or says which environment variable is wrong)
else:
    install()
