"""See a message as a player does on a phone: Discord's dark theme, 390 px wide, in a real browser.

    python -m bench.phone_view --out /tmp/phone                        # every game, fewest and most players
    python -m bench.phone_view --game madcat --players 2 --seed 1 --move 12 --seat 1 --out /tmp/phone
    python -m bench.phone_view --measure --out /tmp/phone    # the browser's layout beside cogs.phone's
    python -m bench.phone_view --game ninelives --players 5 --seat 3 --names "Zoë,José Álvarez,…"
    python -m bench.phone_view --game madcat --view replay --move 7 --seat 0   # /game replay, seat 0's
    python -m bench.phone_view --game madcat --players 5 --view replay --move 30 --seat 0 --no-picture
    python -m bench.phone_view --game ninelives --view confirm    # "Give up?" asked once more
    python -m bench.phone_view --game catsdogs --players 3 --move 9999        # the result
    python -m bench.phone_view --game madcat --players 4 --language fr --names "Zoé,Hélène,李雷,Amélie"

Renders any message the bot sends — its Discord payload (content, embed, components) and its picture —
as an HTML page imitating Discord's mobile dark theme, and screenshots it with headless Chromium
(`apt-get install chromium fonts-noto-color-emoji`). The tables come from whole games played by the
easy computer player, as the golden playthroughs make them; `--seat` shows that seat's private panel.
A developer's tool: no test needs a browser.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

import pictures
from bench.replays import stored
from bench.table_in_memory import NAMES, TableCase, commit, computer_move, new_table
from cogs.messages import Message, table_message
from cogs.panel import confirmation_message, private_panel
from cogs.phone import screen_of
from cogs.play._replay import rebuild, replay_message
from engine import GAMES
from lang import SOURCE, languages, speaking

PHONE_WIDTH = 390
BROWSER_HEIGHT = 2400
STYLES = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
"""Discord's button colours by style: primary, secondary, success, danger, link."""

CSS = """
body { margin: 0; background: #313338; color: #dbdee1; width: 390px;
       font: 16px/1.375 "gg sans", "Noto Sans", "DejaVu Sans", sans-serif; }
.msg { display: flex; padding: 8px 12px 8px 12px; gap: 12px; }
.avatar { flex: 0 0 40px; height: 40px; border-radius: 50%; background: #5865f2; }
.body { flex: 1; min-width: 0; }
.author { color: #f2f3f5; font-weight: 600; } .bot { background: #5865f2; color: #fff; font-size: 10px;
  padding: 1px 4px; border-radius: 3px; margin-left: 4px; vertical-align: 2px; }
.embed { background: #2b2d31; border-left: 4px solid #5865f2; border-radius: 4px; padding: 8px 12px 12px;
         margin-top: 4px; font-size: 14px; }
.embed .title { color: #f2f3f5; font-weight: 600; font-size: 16px; margin: 4px 0; }
.field { margin-top: 8px; } .field .name { color: #f2f3f5; font-weight: 600; }
.embed img { width: 100%; border-radius: 4px; margin-top: 12px; display: block; }
.footer { color: #b5bac1; font-size: 12px; margin-top: 8px; }
pre { background: #1e1f22; border-radius: 4px; padding: 6px; font-size: 12px; white-space: pre-wrap;
      margin: 4px 0; } code { background: #1e1f22; border-radius: 3px; padding: 0 2px; font-size: 85%; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { color: #fff; border-radius: 8px; padding: 8px 14px; font-size: 14px; font-weight: 500; }
.select { flex: 1; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px; padding: 10px;
          color: #949ba4; font-size: 14px; }
.disabled { opacity: 0.5; }
"""


def markdown(text: str) -> str:
    """Discord's markdown, the part Catnip writes: code blocks, code, bold, italics, line breaks."""
    parts = re.split(r"```(?:\w*\n)?(.*?)```", text or "", flags=re.S)
    out = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append(f"<pre>{html.escape(part.strip(chr(10)))}</pre>")
            continue
        part = html.escape(part)
        part = re.sub(r"`([^`]+)`", r"<code>\1</code>", part)
        part = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", part)
        part = re.sub(r"(?<![*\w])\*([^*\n]+)\*(?!\*)", r"<i>\1</i>", part)
        part = re.sub(r"&lt;t:(-?\d+)(?::\w)?&gt;", "in 1 minute", part)
        out.append(part.replace("\n", "<br>"))
    return "".join(out)


def payload_of(message: Message) -> dict[str, Any]:
    """The message as Discord receives it: content, embeds and components."""
    return message.as_sent()


def _component(item: dict[str, Any]) -> str:
    emoji = (item.get("emoji") or {}).get("name", "")
    label = html.escape(f"{emoji} {item.get('label') or ''}".strip())
    disabled = " disabled" if item.get("disabled") else ""
    cid = html.escape(item.get("custom_id", ""))
    if item["type"] == 2:
        colour = STYLES.get(item.get("style", 2), "#4e5058")
        return f'<span class="button{disabled}" data-id="{cid}" style="background:{colour}">{label}</span>'
    placeholder = html.escape(item.get("placeholder") or "Make a selection")
    return f'<span class="select{disabled}" data-id="{cid}">{placeholder} ⌄</span>'


def page(payload: dict[str, Any], picture: bytes | None = None) -> str:
    """An HTML page showing `payload` (and `picture`, the embed's attachment) as a phone shows it."""
    parts = ['<div class="msg"><div class="avatar"></div><div class="body">']
    parts.append('<div class="author">Catnip<span class="bot">APP</span></div>')
    if payload.get("content"):
        parts.append(f"<div>{markdown(payload['content'])}</div>")
    for embed in payload.get("embeds", []):
        colour = f"#{embed.get('color', 0x5865F2):06x}"
        parts.append(f'<div class="embed" style="border-left-color:{colour}">')
        if embed.get("title"):
            parts.append(f'<div class="title">{markdown(embed["title"])}</div>')
        if embed.get("description"):
            first, _, rest = embed["description"].partition("\n")
            parts.append(f'<div><span id="now">{markdown(first)}</span><br>{markdown(rest)}</div>')
        for field in embed.get("fields", []):
            parts.append(
                f'<div class="field"><div class="name">{markdown(field["name"])}</div>'
                f"<div>{markdown(field['value'])}</div></div>"
            )
        if picture is not None and "image" in embed:
            encoded = base64.b64encode(picture).decode()
            parts.append(f'<img src="data:image/png;base64,{encoded}">')
        if embed.get("footer"):
            parts.append(f'<div class="footer">{markdown(embed["footer"]["text"])}</div>')
        parts.append("</div>")
    for row in payload.get("components", []):
        parts.append('<div class="row">' + "".join(_component(item) for item in row["components"]) + "</div>")
    parts.append("</div></div>")
    return f"<!doctype html><meta charset=utf-8><style>{CSS}</style>{''.join(parts)}"


def browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if found is None:
        raise SystemExit("No Chromium found: apt-get install chromium fonts-noto-color-emoji")
    return found


def screenshot(markup: str, out: Path) -> tuple[int, int]:
    """Screenshot `markup` 390 px wide in headless Chromium into `out`, cut to the message's height."""
    with tempfile.TemporaryDirectory() as folder:
        source, shot = Path(folder) / "page.html", Path(folder) / "shot.png"
        source.write_text(markup, encoding="utf-8")
        subprocess.run(
            [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--force-device-scale-factor=1", f"--window-size={PHONE_WIDTH},{BROWSER_HEIGHT}",
             f"--screenshot={shot}", source.as_uri()],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        with Image.open(shot) as image:
            image = image.convert("RGB")
            background = image.getpixel((PHONE_WIDTH - 1, BROWSER_HEIGHT - 1))
            rows = [y for y in range(image.height) if _row_used(image, y, background)]
            bottom = min(image.height, (rows[-1] if rows else 0) + 12)
            image.crop((0, 0, PHONE_WIDTH, bottom)).quantize(256).save(out, optimize=True)
            return PHONE_WIDTH, bottom


MEASURE = """<script>window.addEventListener("load", () => {
  const top = document.querySelector(".msg").getBoundingClientRect().top;
  const bottom = (element) => element.getBoundingClientRect().bottom - top;
  const now = document.getElementById("now"), out = {buttons: {}, now: now ? bottom(now) : 0};
  document.querySelectorAll("[data-id]").forEach((e) => { out.buttons[e.dataset.id] = bottom(e); });
  out.height = Math.max(bottom(document.querySelector(".embed") || now), ...Object.values(out.buttons));
  document.body.insertAdjacentHTML("beforeend", "<pre id=measured>" + JSON.stringify(out) + "</pre>");
});</script>"""


def measure(markup: str) -> dict[str, Any]:
    """Where the browser lays the message out: the "Now:" line's bottom, each control's bottom (by
    custom_id) and the message's height, in pixels from its top (as `cogs.phone.screen_of` models)."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "page.html"
        source.write_text(markup + MEASURE, encoding="utf-8")
        done = subprocess.run(
            [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
             f"--window-size={PHONE_WIDTH},{BROWSER_HEIGHT}", "--dump-dom", source.as_uri()],
            check=True, capture_output=True, timeout=120, text=True,
        )  # fmt: skip
    found = re.search(r"<pre id=\"?measured\"?>(\{.*?\})</pre>", done.stdout, flags=re.S)
    if found is None:
        raise SystemExit("The browser did not lay the page out")
    return json.loads(html.unescape(found.group(1)))


def _row_used(image: Image.Image, y: int, background) -> bool:
    return image.crop((0, y, PHONE_WIDTH, y + 1)).getextrema() != tuple((c, c) for c in background)


def picture_of(live) -> bytes:
    view = live.rules.view(live.state, None)
    scene = pictures.scene_of(live.game.key, view, live.names, live.rules.outcome(live.state), live.language)
    return pictures.draw(live.game.key, scene)


def game_at(
    game: str, players: int, seed: int, move: int, names: tuple[str, ...] = NAMES, language: str = SOURCE
):
    live = new_table(TableCase(game, players, seed, names=names, language=language))
    for _ in range(move):
        if live.rules.outcome(live.state) is not None:
            break
        commit(live, computer_move(live))
    return live


def show(
    game: str,
    players: int,
    seed: int,
    move: int,
    seat: int | None,
    out: Path,
    measured: bool = False,
    names: tuple[str, ...] = NAMES,
    language: str = SOURCE,
) -> Path:
    """The table (or `seat`'s panel, its member speaking `language` too) of a game in `language`."""
    live = game_at(game, players, seed, move, names, language)
    picture = None
    if seat is None:
        message = table_message(live, due=1_700_000_000)
        if message.embed is not None:
            message.embed.set_image(url=f"attachment://{pictures.FILENAME}")
        picture = picture_of(live)
    else:
        with speaking(language):
            message = private_panel(live, seat)
    payload = payload_of(message)
    markup = page(payload, picture)
    name = f"{game}-{players}p-move{move}" + ("" if seat is None else f"-seat{seat}") + ".png"
    path = out / name
    width, height = screenshot(markup, path)
    print(f"{path}  {width}×{height} px  {path.stat().st_size / 1000:.0f} KB")
    if measured:
        _compare(payload, picture, measure(markup))
    return path


def show_replay(
    game: str,
    players: int,
    seed: int,
    step: int,
    seat: int | None,
    out: Path,
    measured: bool = False,
    with_picture: bool = True,
) -> Path:
    """`/game replay`'s viewer of a random finished game at `step`, as `seat`'s member sees it (with
    `with_picture` off, the viewer of a table whose pictures were off: the table's text)."""
    replay = rebuild(*stored(game, players, seed))
    step = min(step, replay.last)
    message = replay_message(replay, step, seat, picture=with_picture)
    live = replay.game_at(step)
    picture = None
    if with_picture:
        message.embed.set_image(url=f"attachment://{pictures.FILENAME}")
        picture = picture_of(live)
    path = out / f"replay-{game}-{players}p-step{step}{'' if with_picture else '-text'}.png"
    payload = payload_of(message)
    width, height = screenshot(page(payload, picture), path)
    print(f"{path}  {width}×{height} px  {path.stat().st_size / 1000:.0f} KB")
    if measured:
        _compare(payload, picture, measure(page(payload, picture)))
    return path


def show_confirmation(game: str, players: int, seed: int, out: Path) -> Path:
    """The second tap a costly move asks for, at the first position of a game where its seat has it."""
    live = new_table(TableCase(game, players, seed))
    texts = live.game.texts
    while live.rules.outcome(live.state) is None:
        for seat in live.to_act():
            actions = [action.encode() for action in live.rules.legal_actions(live.state, seat)]
            asked = [a for a in actions if len(actions) > 1 and texts.confirmation(live.view(seat), a)]
            if asked:
                question = texts.confirmation(live.view(seat), asked[0])
                message = confirmation_message(live, seat, live.record.version, asked[0], question)
                path = out / f"confirm-{game}-{players}p.png"
                width, height = screenshot(page(payload_of(message)), path)
                print(f"{path}  {width}×{height} px  {path.stat().st_size / 1000:.0f} KB")
                return path
        commit(live, computer_move(live))
    raise SystemExit(f"No move of {game} asked for a confirmation in this game")


def _compare(payload: dict[str, Any], picture: bytes | None, browser_says: dict[str, Any]) -> None:
    """Print where the browser put the "Now:" line, the first control and the bottom, beside
    `cogs.phone.screen_of`'s model of the same message."""
    size = Image.open(io.BytesIO(picture)).size if picture is not None else None
    embed = payload["embeds"][0] if payload["embeds"] else None
    model = screen_of(payload["content"], embed, payload["components"], size)
    first = next(iter(browser_says["buttons"]), None)
    control = browser_says["buttons"].get(first, 0)
    print(
        f"  browser: now {browser_says['now']:.0f}, first control {control:.0f}, "
        f"height {browser_says['height']:.0f} px; model: now {model.now:.0f}, "
        f"first control {model.buttons.get(first, 0):.0f}, height {model.height:.0f} px"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.phone_view", description=__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), help="one game (default: all, fewest and most)")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--move", type=int, default=12, help="moves the computer players make first")
    parser.add_argument("--seat", type=int, help="show this seat's private panel instead of the table")
    parser.add_argument("--out", type=Path, default=Path("phone-view"))
    parser.add_argument(
        "--measure", action="store_true", help="print the browser's layout beside the model's"
    )
    parser.add_argument(
        "--no-picture", action="store_true", help="a replay step of a table whose pictures were off"
    )
    parser.add_argument("--names", help="the players' names, comma-separated (default: Ann, Bo, Cy, …)")
    parser.add_argument("--language", default=SOURCE, choices=languages(), help="the table's language")
    parser.add_argument(
        "--view", choices=("table", "replay", "confirm"), default="table",
        help="the table (or --seat's panel), a replay's step (--move, seen by --seat), a confirmation",
    )  # fmt: skip
    args = parser.parse_args()
    names = tuple(name.strip() for name in args.names.split(",")) if args.names else NAMES
    if len(names) < max(game.rules.max_players for game in GAMES.values()):
        names += NAMES[len(names) :]
    args.out.mkdir(parents=True, exist_ok=True)
    with speaking(args.language):  # the member's own views speak it too
        draw_views(args, names)


def draw_views(args: argparse.Namespace, names: tuple[str, ...]) -> None:
    if args.view != "table":
        key = args.game or "ninelives"
        players = args.players or GAMES[key].rules.min_players
        if args.view == "replay":
            show_replay(
                key, players, args.seed, args.move, args.seat, args.out, args.measure, not args.no_picture
            )
        else:
            show_confirmation(key, players, args.seed, args.out)
        return
    if args.game is not None:
        rules = GAMES[args.game].rules
        show(
            args.game,
            args.players or rules.min_players,
            args.seed,
            args.move,
            args.seat,
            args.out,
            args.measure,
            names,
            args.language,
        )
        return
    for key, game in sorted(GAMES.items()):
        for players in sorted({game.rules.min_players, game.rules.max_players}):
            show(key, players, args.seed, args.move, args.seat, args.out, args.measure, names, args.language)


if __name__ == "__main__":
    main()
