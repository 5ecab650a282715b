"""One self-contained HTML page for a game or a tournament (:func:`render_report`).

Why it is built this way: the page must work from ``file://`` with no request at all, so the
styles, the sheet pictures (inline SVG, drawn by :mod:`prefcli.render.svg`), the replay data and
the script are all inside it, and a Content-Security-Policy forbids anything else. Nothing is
computed here: the sheet, the entries, the settlement and the replay come from the report
pipeline (:mod:`prefcli.app.report`). The script only shows and hides what is already drawn
(the sheet after each deal) and lays out the replay's cards; without it the page still shows the
final sheet and every table.
"""
from __future__ import annotations

import json
import os
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence

from prefcli.model.ledger import amount_text, format_amount
from prefcli.render import svg as svgdraw
from prefcli.render.xml_text import html_escape as escape
from prefcli.render.svg_layouts import DrawError

CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
       "font-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'")

CSS = """
:root{--bg:#fdfcf7;--fg:#1b1b1b;--muted:#5c5c5c;--line:#d8d2bf;--accent:#8a2b1f;--card:#fff;--cardline:#9a9a9a;
--red:#b3261e;--black:#1b1b1b;--hl:#f3e7b3;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#17181a;--fg:#e8e6e1;--muted:#a9a6a0;--line:#3b3d41;--accent:#f0a493;
--card:#f4f1e8;--cardline:#777;--red:#b3261e;--black:#1b1b1b;--hl:#4a4120}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,sans-serif}
header,main,footer{max-width:1080px;margin:0 auto;padding:0 16px}
h1{font-size:1.6rem;margin:18px 0 4px}h2{font-size:1.3rem;margin:28px 0 8px;border-bottom:2px solid var(--line)}
h3{font-size:1.05rem;margin:18px 0 6px}
a{color:var(--accent)}
table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
td.n,th.n{text-align:right}
caption{text-align:left;font-weight:600;padding:4px 0}
.muted{color:var(--muted)}
.summary{display:flex;flex-wrap:wrap;gap:20px;align-items:flex-start}
.sheet{margin:0;flex:1 1 520px;max-width:720px}
.sheet svg{width:100%;height:auto;border:1px solid var(--line);background:#fff}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:6px 0}
.controls input[type=range]{flex:1 1 200px}
button,select{font:inherit;padding:3px 10px;border:1px solid var(--line);background:var(--card);color:#1b1b1b;border-radius:4px}
button:focus-visible,select:focus-visible,input:focus-visible,.replay:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.settlement{flex:1 1 300px}
.deals td.game{white-space:nowrap}.deals button.goto{min-width:2.6em}.deals tr.first td{border-top:2px solid var(--line)}
.replay{border:1px solid var(--line);border-radius:6px;padding:10px;margin:8px 0}
.hands{display:grid;grid-template-columns:max-content 1fr;gap:4px 10px;align-items:center}
.cards{display:flex;flex-wrap:wrap;gap:3px;min-height:2.2em}
.c{display:inline-block;min-width:2.1em;padding:2px 4px;border:1px solid var(--cardline);border-radius:4px;
background:var(--card);color:var(--black);text-align:center;font-weight:600;line-height:1.5}
.c.r{color:var(--red)}.c.gone{visibility:hidden}
.trick{display:flex;gap:14px;align-items:flex-end;min-height:3.4em;margin:8px 0}
.trick figure{margin:0;text-align:center}.trick figcaption{font-size:.8rem;color:var(--muted)}
.win .c{outline:2px solid var(--accent)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media print{
 @page{size:A4;margin:12mm}
 body{background:#fff;color:#000;font-size:10pt}
 .controls,.replay-section,.noprint{display:none!important}
 header,main{max-width:none;padding:0}
 .summary{display:block;break-inside:avoid;break-after:page}
 .sheet svg{max-height:150mm;width:auto;max-width:100%;border:0}
 .settlement table{font-size:9pt}
 h2{break-after:avoid}
}
"""

JS = r"""
(function(){
'use strict';
function steps(fig){
  var svg=fig.querySelector('svg'), range=fig.querySelector('input[type=range]'), out=fig.querySelector('output');
  if(!svg||!range)return;
  var labels=JSON.parse(fig.getAttribute('data-labels')||'[]');
  var parts=[].map.call(svg.querySelectorAll('[data-s]'),function(g){
    var ab=g.getAttribute('data-s').split('-');return [g,+ab[0],+ab[1]];});
  function show(s){
    s=Math.max(0,Math.min(+range.max,s));range.value=s;
    parts.forEach(function(p){p[0].style.display=(p[1]<=s&&s<=p[2])?'':'none';});
    out.textContent=labels[s]||String(s);
    svg.setAttribute('aria-label',fig.getAttribute('data-title')+', '+(s?'after deal '+(labels[s]||s):'before the first deal'));
  }
  range.addEventListener('input',function(){show(+range.value);});
  fig.querySelector('.prev').addEventListener('click',function(){show(+range.value-1);});
  fig.querySelector('.next').addEventListener('click',function(){show(+range.value+1);});
  fig.addEventListener('keydown',function(e){
    if(e.target.tagName==='INPUT')return;
    if(e.key==='ArrowLeft'||e.key==='ArrowRight'){show(+range.value+(e.key==='ArrowRight'?1:-1));e.preventDefault();}
  });
  fig.showStep=show;
  show(+range.value);
}
var SUIT={S:'\u2660',C:'\u2663',D:'\u2666',H:'\u2665'};
function card(c,gone){
  var s=document.createElement('span');var suit=c.slice(-1);
  s.className='c'+((suit==='D'||suit==='H')?' r':'')+(gone?' gone':'');
  s.textContent=c.slice(0,-1)+(SUIT[suit]||suit);
  s.setAttribute('aria-label',c);return s;
}
function el(tag,text,cls){var e=document.createElement(tag);if(text!=null)e.textContent=text;if(cls)e.className=cls;return e;}
function replay(box){
  var data=JSON.parse(box.querySelector('script[type="application/json"]').textContent);
  var sel=box.querySelector('select'), view=box.querySelector('.view'), live=box.querySelector('.live');
  var di=0, step=0;
  function render(){
    var d=data[di], n=d.tricks.length; step=Math.max(0,Math.min(n,step));
    var played={};
    for(var i=0;i<step;i++)d.tricks[i].cards.forEach(function(pc){played[pc[1]]=1;});
    view.textContent='';
    var head=el('p','Deal '+d.n+(d.dealer?', dealer '+d.dealer:'')+(d.contract?': '+d.contract:''));view.appendChild(head);
    var hands=el('div',null,'hands'), held=step&&d.playing?d.playing:d.hands;
    Object.keys(held).forEach(function(p){
      hands.appendChild(el('strong',p));var cs=el('div',null,'cards');
      held[p].forEach(function(c){cs.appendChild(card(c,played[c]));});hands.appendChild(cs);});
    if(d.talon&&!(step&&d.playing)){hands.appendChild(el('strong','talon'));var t=el('div',null,'cards');
      d.talon.forEach(function(c){t.appendChild(card(c,played[c]));});hands.appendChild(t);}
    view.appendChild(hands);
    if(step===0){
      if(d.auction.length)view.appendChild(el('p','Auction: '+d.auction.map(function(a){return a[0]+' '+a[1];}).join(', ')));
      if(d.discard)view.appendChild(el('p','Discard: '+d.discard.join(' ')));
      if(d.whist.length)view.appendChild(el('p','Whist: '+d.whist.map(function(a){return a[0]+' '+a[1];}).join(', ')));
      live.textContent='Deal '+d.n+': the hands before the first trick';
    }else{
      var tr=d.tricks[step-1], row=el('div',null,'trick');
      tr.cards.forEach(function(pc){var f=el('figure',null,pc[0]===tr.winner?'win':'');f.appendChild(card(pc[1]));
        f.appendChild(el('figcaption',pc[0]||'talon'));row.appendChild(f);});
      view.appendChild(row);
      live.textContent='Trick '+step+' of '+n+': '+tr.cards.map(function(pc){return (pc[0]||'talon')+' '+pc[1];}).join(', ')
        +(tr.winner?' \u2192 '+tr.winner:'');
    }
    if(step===n&&d.result)view.appendChild(el('p','Result: '+d.result));
    box.querySelector('.tno').textContent=step?('trick '+step+' of '+n):'before the play';
  }
  sel.addEventListener('change',function(){di=+sel.value;step=0;render();});
  box.querySelector('.prev').addEventListener('click',function(){step--;render();});
  box.querySelector('.next').addEventListener('click',function(){step++;render();});
  box.addEventListener('keydown',function(e){
    if(e.target.tagName==='SELECT')return;
    var k=e.key;
    if(k==='ArrowRight'||k==='ArrowLeft'||k==='Home'||k==='End'){
      step=k==='ArrowRight'?step+1:k==='ArrowLeft'?step-1:k==='Home'?0:1e9;render();e.preventDefault();}
  });
  render();
}
document.querySelectorAll('figure.sheet').forEach(steps);
document.querySelectorAll('button.goto').forEach(function(b){
  var fig=document.getElementById(b.getAttribute('data-fig'));
  if(!fig||!fig.showStep){b.disabled=true;return;}
  b.addEventListener('click',function(){fig.showStep(+b.getAttribute('data-step'));
    fig.scrollIntoView({block:'nearest'});fig.querySelector('input[type=range]').focus();});
});
document.querySelectorAll('.replay').forEach(replay);
})();
"""


def _f(v: Any) -> str:
    if isinstance(v, Fraction):
        return str(format_amount(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_f(x) for x in v) + "]"
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _signed(v: Fraction) -> str:
    """A signed amount; a repeating fraction (a third of a whist) as two decimals and an ellipsis."""
    s = amount_text(v)
    return "+" + s if v > 0 else s


class _Ids:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[int] = (),
           caption: str = "", cls: str = "", raw: bool = False) -> str:
    num = set(numeric)
    out = [f'<table class="{cls}">' if cls else "<table>"]
    if caption:
        out.append(f"<caption>{escape(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f'<th scope="col"{" class=n" if i in num else ""}>{escape(h)}</th>'
                                       for i, h in enumerate(head)) + "</tr></thead><tbody>")
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            body = c if raw else escape(c)
            if i == 0:
                cells.append(f'<th scope="row">{body}</th>')
            else:
                cells.append(f'<td{" class=n" if i in num else ""}>{body}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def render_report(report: Any, style: str = "paper") -> str:
    """The whole page."""
    ids = _Ids()
    body: List[str] = []
    multi = len(report.games) > 1 or report.tournament is not None
    players: List[str] = []
    for g in report.games:
        for p in g.loaded.source.players:
            if p not in players:
                players.append(p)
    body.append(f"<header><h1>{escape(report.title)}</h1>")
    body.append(f'<p>Players: {escape(", ".join(players))}. ')
    if multi:
        body.append(f"{len(report.games)} rounds.</p>")
    else:
        g = report.games[0]
        body.append(f"Preset: <strong>{escape(g.rules.variant)}</strong> "
                    f"({escape(g.rules.preset.title)}).</p>")
    if multi:
        body.append("<nav aria-label=\"contents\" class=\"noprint\"><ul>"
                    + '<li><a href="#standings">Standings</a></li>'
                    + "".join(f'<li><a href="#game{i + 1}">{escape(os.path.basename(g.name))}</a></li>'
                              for i, g in enumerate(report.games)) + "</ul></nav>")
    body.append("</header><main>")
    if multi:
        body.append(_tournament(report))
    for i, g in enumerate(report.games):
        body.append(_game(g, i + 1, multi, style, ids))
    body.append("</main>")
    body.append('<footer class="muted"><p>Made by prefcli from the game record: every number is an entry of '
                "the scorer's ledger; the page loads nothing from outside.</p></footer>")
    css = CSS + svgdraw.STYLE_CSS[style]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(report.title)}</title><style>{css}</style></head><body>"
            + "".join(body) + f"<script>{JS}</script></body></html>\n")


def _tournament(report: Any) -> str:
    out = ['<section id="standings" aria-labelledby="standings-h"><h2 id="standings-h">Standings</h2>']
    s = report.summary
    if report.standings:
        rows = [[st.player, str(st.rank), _f(st.total), str(st.games), _f(st.average), _f(st.raw),
                 f"eliminated after {os.path.basename(st.eliminated_after)}" if st.eliminated_after else ""]
                for st in report.standings]
        # the player column first (a row header), the rank beside it
        out.append(_table(["player", "rank", "total", "games", "average", "whists", ""], rows, (1, 2, 3, 4, 5),
                          caption="Standings (each round counted by the tournament's bands, cap and floor)"))
    names = list(s.players)
    rows = []
    for g in report.games:
        net = g.settled.settlement.net if g.settled.settlement else {}
        rows.append([os.path.basename(g.name)] + [_signed(net[p]) if p in net else "" for p in names])
    rows.append(["total (whists)"] + [_signed(s.net[p]) for p in names])
    if s.money is not None:
        rows.append(["total (money)"] + [str(s.money[p]) for p in names])
    out.append(_table(["round"] + names, rows, range(1, len(names) + 1), caption="Results per round (net whists)"))
    out.append(_running_totals(report))
    if s.payments:
        out.append("<h3>Payments on the totals</h3><ul>" + "".join(
            f"<li>{escape(p.payer)} → {escape(p.payee)}: {escape(str(p.amount))}</li>" for p in s.payments) + "</ul>")
    out.append("</section>")
    return "".join(out)


def _running_totals(report: Any) -> str:
    """Each player's running total over the rounds, drawn as the season chart of `stats --svg`."""
    from prefcli.render.stats import season_svg
    rounds = [(os.path.basename(g.name), tuple(g.settled.settlement.net.items()))
              for g in report.games if g.settled.settlement is not None]
    if len(rounds) < 2:
        return ""
    picture = season_svg(rounds, "Running totals over the rounds", "rounds", standalone=False)
    return (f'<figure class="season">{picture}<figcaption>Each player\'s net whists added up round by round '
            "(prefcli stats --svg draws the same over a season)</figcaption></figure>")


def _game(g: Any, index: int, multi: bool, style: str, ids: _Ids) -> str:
    src = g.loaded.source
    rules = g.rules
    hid = f"game{index}"
    title = os.path.basename(g.name)
    level = "h2"
    out = [f'<section id="{hid}" class="game" aria-labelledby="{hid}-h">']
    if multi:
        out.append(f'<{level} id="{hid}-h">{escape(title)}</{level}>')
        out.append(f"<p>Preset <strong>{escape(rules.variant)}</strong> ({escape(rules.preset.title)}); "
                   f"players {escape(', '.join(src.players))}.</p>")
    else:
        out.append(f'<h2 id="{hid}-h">The sheet and the settlement</h2>')
    out.append('<div class="summary">')
    fid = ids("sheet")
    out.append(_sheet_figure(g, style, fid))
    out.append(_settlement(g))
    out.append("</div>")
    out.append(_rules(g, ids))
    if g.loaded.result is not None:
        out.append(_deals(g, fid))
    if g.replays:
        out.append(_replay(g, ids))
    if getattr(g, "analyses", None):
        out.append(_analysis(g, ids))
    out.append("</section>")
    return "".join(out)


def _sheet_figure(g: Any, style: str, fid: str) -> str:
    src = g.loaded.source
    try:
        picture, labels = svgdraw.render_steps(src, style, embed_style=False)
    except DrawError as exc:
        return f'<p class="sheet">{escape(exc.message)}</p>'
    n = len(labels) - 1
    cap = "The sheet as on paper"
    controls = ""
    if n > 0:
        controls = (f'<div class="controls"><label for="{fid}-r">Deal</label>'
                    f'<button type="button" class="prev" aria-label="previous deal">◀</button>'
                    f'<input type="range" id="{fid}-r" min="0" max="{n}" value="{n}" step="1" '
                    f'aria-describedby="{fid}-o">'
                    f'<button type="button" class="next" aria-label="next deal">▶</button>'
                    f'<output id="{fid}-o" for="{fid}-r" aria-live="polite">{escape(labels[-1])}</output></div>')
        cap += ", deal by deal (slider, ◀ ▶, or the arrow keys)"
    title = f"{src.title + ': ' if src.title else ''}the sheet of {', '.join(src.players)}"
    return (f'<figure class="sheet" id="{fid}" data-labels="{escape(json.dumps(labels, ensure_ascii=False))}" '
            f'data-title="{escape(title)}">'
            f"{picture}<figcaption>{escape(cap)}</figcaption>{controls}</figure>")


def _settlement(g: Any) -> str:
    r = g.settled
    st = r.settlement
    rules = g.rules
    words = {a: rules.word(a) for a in ("pool", "mountain", "whists")}
    sheet = g.loaded.result.sheet() if g.loaded.result is not None else g.loaded.sheet.data
    out = ['<div class="settlement"><h3>Settlement</h3>']
    head = ["player", words["pool"], words["mountain"], f"net {words['whists']}"]
    if r.money is not None:
        head.append("money")
    rows = []
    for p in st.players:
        row = [p, _f(sheet.pool.get(p, Fraction(0))), _f(sheet.mountain.get(p, Fraction(0))), _signed(st.net[p])]
        if r.money is not None:
            row.append(str(r.money[p]))
        rows.append(row)
    state = ""
    if r.finished is not None:
        state = " (game finished)" if r.finished else " (game not finished)"
    cap = f"Method {st.method}" + state
    out.append(_table(head, rows, range(1, len(head)), caption=cap, cls="final"))
    if r.price is not None:
        out.append(f'<p class="muted">{escape(str(r.price))} a whist, rounded to {escape(str(r.coin))}.</p>')
    if r.payments:
        out.append("<h3>Payments</h3><ul>" + "".join(
            f"<li>{escape(p.payer)} → {escape(p.payee)}: {escape(str(p.amount))}</li>" for p in r.payments) + "</ul>")
    else:
        out.append("<p>No payments: everyone is even.</p>")
    if st.notes:
        out.append("<ul class=\"muted\">" + "".join(f"<li>{escape(n)}</li>" for n in st.notes) + "</ul>")
    res = g.loaded.result
    if res is not None and res.notes:
        out.append("<ul class=\"muted\">" + "".join(f"<li>{escape(n)}</li>" for n in res.notes) + "</ul>")
    out.append("</div>")
    return "".join(out)


def _rules(g: Any, ids: _Ids) -> str:
    rules = g.rules
    out = [f"<h3>Rules</h3><p>Preset <strong>{escape(rules.variant)}</strong>: {escape(rules.preset.title)}. "]
    if not g.options:
        out.append("Every option is the preset's own.</p>")
        return "".join(out)
    out.append("Options that differ from the preset:</p>")
    rows = [[o.name, _f(o.value), _f(o.default)] for o in g.options]
    out.append(_table(["option", "value", "preset's value"], rows))
    return "".join(out)


def _deals(g: Any, fid: str) -> str:
    from prefcli.render.sheet import deal_label
    res = g.loaded.result
    record = res.record
    rules = res.rules
    words = {a: rules.word(a) for a in ("pool", "mountain", "whists")}
    rows: List[str] = []
    groups: Dict[Optional[int], List[Any]] = {}
    order: List[Optional[int]] = []
    for e in res.ledger.entries:
        if e.deal not in groups:
            groups[e.deal] = []
            order.append(e.deal)
        groups[e.deal].append(e)
    for d in order:
        es = groups[d]
        label = deal_label(record, d)
        dealer = res.dealers.get(d - 1, "") if d is not None else ""
        for i, e in enumerate(es):
            area = words[e.area] + (f" on {e.on}" if e.on is not None else "")
            first = i == 0
            number = "" if d is None else (
                f'<button type="button" class="goto" data-fig="{fid}" data-step="{min(d, len(record.deals))}" '
                f'aria-label="show the sheet after deal {d}">{d}</button>')
            cells = (f'<th scope="row" rowspan="{len(es)}">{number}</th>'
                     f'<td class="game" rowspan="{len(es)}">{escape(label)}'
                     + (f'<br><span class="muted">dealer {escape(dealer)}</span>' if dealer else "") + "</td>"
                     ) if first else ""
            rows.append(f'<tr{" class=first" if first else ""}>{cells}<td>{escape(e.player)}</td>'
                        f"<td>{escape(area)}</td><td class=n>{escape(_f(e.amount))}</td>"
                        f"<td><code>{escape(e.rule)}</code></td><td>{escape(e.text)}</td></tr>")
    unscored = len(record.deals) - len([d for d in order if d is not None])
    note = (f'<p class="muted">{unscored} deal(s) wrote nothing on the sheet.</p>' if unscored > 0 else "")
    return ('<h3>The deals and their entries</h3>'
            '<table class="deals"><caption>Every entry of the sheet, deal by deal (as <code>prefcli score '
            "--explain</code> lists them)</caption><thead><tr>"
            + "".join(f'<th scope="col"{" class=n" if h == "amount" else ""}>{h}</th>'
                      for h in ("deal", "game", "player", "area", "amount", "rule", "why"))
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>" + note)


def replay_data(replays: Sequence[Any]) -> List[Dict[str, Any]]:
    """The engine's replays as compact plain data for the page's script."""
    out = []
    for r in replays:
        hands = {p: [str(c) for c in sorted(cs, key=lambda c: (c.suit.order, -int(c.rank)))]
                 for p, cs in (r.hands or {}).items()}
        contract = r.contract or r.deal.contract
        ctext = str(contract) if contract is not None else ""
        if contract is not None and not contract.is_all_pass and r.declarer:
            ctext += f" by {r.declarer}"
        result = ", ".join(f"{p} {k}" for p, k in r.counts.items()) if r.counts else ""
        playing = None
        if r.declarer and r.discard is not None and r.talon is not None and r.declarer in hands:
            # the declarer plays with the talon taken and the discard put away
            gone = {str(c) for c in r.discard}
            mine = [c for c in list(r.hands[r.declarer]) + list(r.talon) if str(c) not in gone]
            playing = dict(hands)
            playing[r.declarer] = [str(c) for c in sorted(mine, key=lambda c: (c.suit.order, -int(c.rank)))]
        out.append({
            "n": r.number, "dealer": r.dealer, "contract": ctext, "hands": hands, "playing": playing,
            "talon": [str(c) for c in r.talon] if r.talon is not None else None,
            "auction": [[s.player, str(s.call)] for s in r.auction],
            "discard": [str(c) for c in r.discard] if r.discard is not None else None,
            "whist": [[p, str(d)] for p, d in r.whist],
            "tricks": [{"cards": [[w, str(c)] for w, c in t.cards], "winner": t.winner} for t in r.tricks],
            "result": result,
        })
    return out


def _analysis(g: Any, ids: _Ids) -> str:
    """report --analyze: each full deal's double-dummy line and mistakes (prefcli analyze)."""
    from prefcli.render.analysis import analysis_rows
    aid = ids("analysis")
    out = [f'<section class="analysis" aria-labelledby="{aid}-h"><h3 id="{aid}-h">Double-dummy analysis</h3>',
           "<p>With every card known and perfect play: the declarer's tricks (taken so far plus the best "
           "rest) after each trick, and the cards that cost a trick.</p>"]
    for bound in dict.fromkeys(a.bound for a in g.analyses if a.kind == "all-pass"):
        out.append(f"<p>All-pass: {escape(bound)}.</p>")
    for a in g.analyses:
        caption, head, rows, mistakes = analysis_rows(a)
        if rows:
            out.append(_table(head, rows, range(1, len(head)), caption=caption))
        else:
            out.append(f"<p>{escape(caption)}</p>")
        if mistakes:
            out.append("<ul>" + "".join(f"<li>{escape(m)}</li>" for m in mistakes) + "</ul>")
    out.append("</section>")
    return "".join(out)


def _replay(g: Any, ids: _Ids) -> str:
    rid = ids("replay")
    # no "<" at all inside the script element, so nothing in the data can close or bend it
    data = json.dumps(replay_data(g.replays), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    options = "".join(f'<option value="{i}">deal {r.number}</option>' for i, r in enumerate(g.replays))
    return (f'<section class="replay-section" aria-labelledby="{rid}-h"><h3 id="{rid}-h">Replay</h3>'
            f'<div class="replay" id="{rid}" tabindex="0" aria-label="replay: the arrow keys step through the tricks">'
            f'<div class="controls"><label for="{rid}-d">Deal</label><select id="{rid}-d">{options}</select>'
            '<button type="button" class="prev" aria-label="previous trick">◀ previous</button>'
            '<span class="tno"></span>'
            '<button type="button" class="next" aria-label="next trick">next ▶</button></div>'
            '<div class="view"></div><p class="live sr" aria-live="polite"></p>'
            f'<script type="application/json">{data}</script>'
            "<noscript><p>The replay needs JavaScript; <code>prefcli replay</code> prints the same.</p></noscript>"
            "</div></section>")
