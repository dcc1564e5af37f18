# nimlab's sitecustomize (src/runner/seed.rs), for Python 2.7 and 3: a fresh interpreter's
# `random` starts from the seed nimlab derives for the run (NIMLAB_RANDOM_SEED), as a forked
# one's does (forkserver_body.py), so that a program drawing random numbers draws the same ones
# however it is run. site imports it as the interpreter starts (nimlab puts its folder first in
# PYTHONPATH); it leaves as little trace as it can: its variable and its folder leave the
# environment and sys.path, and it leaves sys.modules (the interpreter's own sitecustomize, if
# there is one, is imported in its place). What stays, until the program imports random, is a
# finder first in sys.meta_path; it seeds the standard library's random as that is imported
# (not a module of the program's that has its name) and leaves. A random already imported
# (by a .pth file) is seeded here. The fork server uses the same finder (RandomSeeder).
import os
import sys


class RandomSeeder(object):
    def __init__(self, seed, keep=None):
        self.seed = seed
        # (This module, kept alive: Python 2 empties a freed module's globals.)
        self.keep = keep

    def install(self):
        random = sys.modules.get("random")
        if random is None:
            sys.meta_path.insert(0, self)
        else:
            self.plant(random)

    def leave(self):
        if self in sys.meta_path:
            sys.meta_path.remove(self)

    def standard(self, path):
        """Whether `path` (a module's file) is in the standard library."""
        here = getattr(sys, "_stdlib_dir", None) or os.path.dirname(os.__file__)
        real = os.path.realpath
        return bool(path) and real(os.path.dirname(path)) == real(here)

    def plant(self, module):
        core = sys.modules.get("_random")
        inst = getattr(module, "_inst", None)
        if core is not None and isinstance(inst, core.Random):
            if self.standard(getattr(module, "__file__", None)):
                inst.seed(self.seed)

    def find_spec(self, name, path=None, target=None):
        """Python 3: the spec the other finders give random, its loader wrapped to seed it."""
        if name != "random" or path is not None:
            return None
        self.leave()
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if self.standard(spec.origin) and hasattr(loader, "exec_module"):
            spec.loader = _Seeding(loader, self)
        return spec

    def find_module(self, name, path=None):
        """Python 2: this finder loads random (as the import system would), if it is the
        standard library's."""
        if name != "random" or path is not None:
            return None
        self.leave()
        for folder in sys.path:
            folder = folder or "."
            if self.standard(os.path.join(folder, "random.py")):
                return self
            for end in (".py", ".pyc", ".so", "module.so", "/__init__.py", "/__init__.pyc"):
                if os.path.exists(os.path.join(folder, "random" + end)):
                    return None
        return None

    def load_module(self, name):
        module = sys.modules.get(name)
        if module is None:
            __import__(name)
            module = sys.modules[name]
        self.plant(module)
        return module


class _Seeding(object):
    """Python 3: random's loader, seeding it once it has run (its own loader is back in place
    before it runs)."""

    def __init__(self, loader, seeder):
        self.loader = loader
        self.seeder = seeder

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        self.seeder.plant(module)


def _start():
    folder = os.path.dirname(os.path.abspath(__file__))
    seed = os.environ.pop("NIMLAB_RANDOM_SEED", None)
    paths = os.environ.pop("PYTHONPATH", "").split(os.pathsep, 1)
    if len(paths) > 1:
        os.environ["PYTHONPATH"] = paths[1]
    if folder in sys.path:
        sys.path.remove(folder)
    sys.path_importer_cache.pop(folder, None)
    own = sys.modules.pop("sitecustomize", None)
    try:
        # The interpreter's own, in this one's place (its failure, or its absence, is the
        # failure of this import: site says what it would have said of it, or nothing).
        import sitecustomize  # noqa: F401
    finally:
        if seed is not None:
            RandomSeeder(int(seed), own).install()


if __name__ == "sitecustomize":
    _start()
