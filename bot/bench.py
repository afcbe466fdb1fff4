"""``python -m bot.bench``: the benchmarks (:mod:`bot.tools.bench`), under the name the issues give."""

from bot.tools.bench import main

if __name__ == "__main__":
    main()
