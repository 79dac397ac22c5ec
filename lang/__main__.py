"""`python -m lang update [LANGUAGE …]`: bring the catalogs (all, or the ones named; a language without
one gets a new catalog) in step with the texts the code marks, and say how many each lacks."""

from __future__ import annotations

import argparse

from lang import SOURCE, languages
from lang.catalogs_in_code import update


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m lang", description=__doc__)
    parser.add_argument("command", choices=["update"])
    parser.add_argument(
        "languages", nargs="*", help="Discord locales, e.g. fr or pt-BR (default: every catalog)"
    )
    args = parser.parse_args()
    for language in args.languages or [code for code in languages() if code != SOURCE]:
        texts, untranslated = update(language)
        print(f"{language}: {texts} texts, {untranslated} to translate")


if __name__ == "__main__":
    main()
