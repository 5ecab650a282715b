"""`prefcli import` (issue 17): each importer on its sample files (tests/examples/imports/, sources
named in its README), detection, the loss report, the check of the program's own numbers, and
the canonical output read back by validate and replay."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import SHARED
from prefcli.app.importing import Source, import_source, validate_output
from prefcli.cli.main import main
from prefcli.io.importers import detect, importers, registry
from prefcli.io.parsing import parse_text
from prefcli.io.writer_json import dump
from prefcli.model.diagnostics import InputError
from prefcli.rules.checks import check_document

HERE = Path(__file__).parent / "examples" / "imports"
SAMPLES = {
    "rostiktc2": ["rostiktc2/preferans-backup-2026-07-14.json"],
    "prefandroid": ["prefandroid/pulya_20251124160000_3_20.json"],
    "mathfewmatthews": ["mathfewmatthews/preferans.pref.json"],
    "gchet": ["gchet/9f2c4e1a7b3d4c5e8f901a2b3c4d5e6f.json"],
    "bridge-studio": ["bridge-studio/preferansEn.bts", "bridge-studio/preferansRu.bts",
                      "bridge-studio/preferansFriday.pts", "bridge-studio/solvealldeals.pts"],
    "preferanser": [f"preferanser/{i}.json" for i in range(1, 8)],
}
NOTES = "players: Ann, Bob, Cid\nvariant: sochi\nBob 6S Cid:w Ann:w 6/3/1\npass 2/5/3\n"
ALL = [(name, f) for name, files in SAMPLES.items() for f in files]


def source(rel: str) -> Source:
    path = HERE / rel
    return Source(str(path), path.read_bytes())


def imported(rel: str, name: str = "auto"):
    return import_source(source(rel), name)


def notes_of(result, field=None, loss=None):
    return [n for n in result.notes if (field is None or n.field == field) and (loss is None or n.loss == loss)]


# --- registry and detection --------------------------------------------------------------------

def test_registry_names_every_importer_with_detector_and_parser():
    reg = registry()
    assert set(reg) == {"rostiktc2", "prefandroid", "mathfewmatthews", "gchet", "bridge-studio",
                        "preferanser", "notes"}
    for detector, parser in reg.values():
        assert callable(detector) and callable(parser)


@pytest.mark.parametrize("name,rel", ALL)
def test_each_sample_is_detected_as_exactly_its_own_format(name, rel):
    assert [i.name for i in detect(source(rel))] == [name]


def test_notes_and_prefcli_files_are_not_confused():
    assert [i.name for i in detect(Source("n.txt", NOTES.encode()))] == ["notes"]
    examples = Path(__file__).parent.parent / "examples"
    for f in sorted(examples.glob("*.yaml")) + sorted(examples.glob("*.txt")):
        found = [i.name for i in detect(Source(str(f), f.read_bytes()))]
        assert found in ([], ["notes"]), (f, found)
    assert detect(Source("x.json", b'{"format": "pref-record/1"}')) == []
    assert detect(Source("r.yaml", b"players: [A, B, C]\nformat: pref-record/1\ndeals: []\n")) == []
    assert detect(Source("x.bin", bytes(range(256)))) == []


@pytest.mark.parametrize("name,rel", ALL)
def test_every_imported_sample_validates(name, rel, tmp_path):
    result = imported(rel)
    assert result.problems == []
    assert result.outputs
    for out in result.outputs:
        for kind in ("json", "yaml"):
            text = dump(out.data, kind)
            doc = parse_text(f"out.{kind}", text, kind == "json")
            assert check_document(doc) == [], (rel, out.label)
            assert doc.data == json.loads(dump(out.data, "json"))   # YAML and JSON read back the same
        assert validate_output("x", out) == []
        meta = out.data["meta"]["source"]
        assert meta["program"] == result.importer.program.split(" (")[0].split(" ")[0] or meta["program"]
        assert meta["file"] == os.path.basename(rel)


def test_cli_validate_and_replay_read_what_import_writes(tmp_path):
    dest = tmp_path / "out"
    files = [str(HERE / f) for _, f in ALL]
    # base names repeat across folders (1.json …): one folder per importer
    for name, rels in SAMPLES.items():
        assert main(["import", *[str(HERE / r) for r in rels], "-o", f"{dest / name}/"]) == 0
    written = sorted(str(p) for p in dest.rglob("*.yaml"))
    assert len(written) == 1 + 1 + 1 + 1 + (6 + 6 + 1 + 5) + 7
    assert main(["validate", "--quiet", str(dest)]) == 0
    for path in written:
        if "bridge-studio" in path or "preferanser" in path:
            assert main(["replay", "--check", path]) == 0
    del files


# --- rostiktc2 ---------------------------------------------------------------------------------

def test_rostiktc2_every_field_mapped():
    r = imported("rostiktc2/preferans-backup-2026-07-14.json")
    (out,) = r.outputs
    d = out.data
    assert d["players"] == ["Anna", "Bruno", "Carla"]
    assert d["rules"] == {"variant": "sochi", "pool": 10, "price": "0.05"}
    assert d["meta"]["date"] == "2026-07-14"
    assert d["meta"]["source"]["version"] == "SavedGame v1"
    assert d["deals"][0] == {"contract": "6S", "declarer": "Anna", "whist": {"Bruno": "pass", "Carla": "whist"},
                             "tricks": {"Anna": 6, "Bruno": 0, "Carla": 4}}
    assert d["deals"][1] == {"contract": "all-pass", "tricks": {"Anna": 2, "Bruno": 5, "Carla": 3}}
    assert d["deals"][2] == {"contract": "misere", "declarer": "Bruno", "tricks": {"Bruno": 0, "Anna": 5, "Carla": 5}}
    assert d["deals"][3] == {"contract": "7NT", "declarer": "Carla", "whist": {"Anna": "pass", "Bruno": "pass"},
                             "note": "entrambi passano: contratto considerato fatto"}
    assert [n.deal for n in notes_of(r, "tricks")] == [3]
    assert notes_of(r, "events.createdAt", loss=True)
    assert notes_of(r, "rules")                    # the program's fixed rules: assumed, said
    assert r.check.compared is None                # the file keeps no totals


def test_rostiktc2_manual_adjustments_four_players_and_undone():
    data = json.loads((HERE / SAMPLES["rostiktc2"][0]).read_text(encoding="utf-8"))
    ids = [p["id"] for p in data["config"]["players"]]
    data["config"]["players"].append({"id": "d", "name": "Dario"})
    data["config"]["firstRestPlayerId"] = "d"
    for e, rest in zip(data["events"], ["d", ids[0], ids[1], ids[2]]):
        e["restPlayerId"] = rest
    data["events"] = data["events"][:1]
    data["events"].append({"id": "m", "createdAt": "x", "type": "manual", "raspasyLevel": 2, "note": "fix",
                           "adjustments": [{"kind": "pool", "playerId": ids[0], "amount": 2},
                                           {"kind": "penalty", "playerId": ids[1], "amount": 4},
                                           {"kind": "credit", "fromId": ids[2], "againstId": ids[0], "amount": 10}]})
    data["undone"] = [{"id": "u", "createdAt": "x", "type": "raspasy", "tricks": {}}]
    r = import_source(Source("b.json", json.dumps(data).encode()))
    d = r.outputs[0].data
    assert d["first_dealer"] == "Dario" and d["deals"][0]["dealer"] == "Dario"
    assert d["deals"][1] == {"adjust": {"pool": {"Anna": 2}, "mountain": {"Bruno": 4},
                                        "whists": {"Carla": {"Anna": 10}}, "note": "fix"}}
    assert notes_of(r, "raspasyLevel", loss=True)
    assert notes_of(r, "manual") and notes_of(r, "undone")


# --- PrefAndroid -------------------------------------------------------------------------------

ANDROID = SAMPLES["prefandroid"][0]


def test_prefandroid_every_field_mapped_and_the_check_agrees():
    r = imported(ANDROID)
    d = r.outputs[0].data
    assert d["players"] == ["Игрок 1", "Игрок 2", "Игрок 3"]
    # Sochy + Med677 + stalindgrad; the other knobs are sochi's own values
    assert d["rules"] == {"variant": "sochi", "pool": 20, "stalingrad": True, "allpass": {"exit": [6, 7, 7]}}
    assert d["meta"]["source"]["rules"]["raspasyExit"] == "Med677"
    assert d["first_dealer"] == "Игрок 1"
    assert d["deals"] == [
        {"dealer": "Игрок 1", "contract": "6H", "declarer": "Игрок 2",
         "whist": {"Игрок 1": "whist", "Игрок 3": "pass"}, "tricks": {"Игрок 1": 2, "Игрок 2": 6, "Игрок 3": 2}},
        {"dealer": "Игрок 2", "contract": "all-pass", "tricks": {"Игрок 1": 3, "Игрок 2": 0, "Игрок 3": 7}}]
    lost = {n.field for n in notes_of(r, loss=True)}
    assert lost == {"rules.miserRaspExit", "rules.prikupConsolation", "contract"}
    assert "trump suit" in notes_of(r, "contract")[0].what
    assert r.check.compared and r.check.differences == []


def _android(change) -> bytes:
    data = json.loads((HERE / ANDROID).read_text(encoding="utf-8"))
    change(data)
    return json.dumps(data, ensure_ascii=False).encode()


def test_prefandroid_difference_deal_by_deal_with_the_option_that_explains_it():
    def no_zero_bonus(d):
        d["log"][4]["value"] = 2
        d["scores"][1]["pulya"] = 2
    r = import_source(Source("p.json", _android(no_zero_bonus)))
    (diff,) = r.check.differences
    assert diff.deal == 2
    assert [(c, int(a), int(b)) for c, a, b in diff.cells] == [(("pool", "Игрок 2", None), 1, 0)]
    assert "allpass.zero_trick_bonus = none" in diff.explained_by

    def own_whists(d):
        d["log"][1]["value"] = 4
        d["scores"][0]["visty"]["1"] = 4
    r = import_source(Source("p.json", _android(own_whists)))
    (diff,) = r.check.differences
    assert diff.deal == 1 and "single_whist = own" in diff.explained_by


def test_prefandroid_custom_score_and_rule_knobs():
    def edit(d):
        d["gameLog"].append({"gameType": "Custom", "dealer": 2, "contractor": 0, "contract": 0, "taken": {},
                             "visters": [], "multiplier": 1, "halfWithDealer": False,
                             "customScore": {"scoreType": "Visty", "playerNum": 2, "refPlayerNum": 0, "value": 5}})
        d["rules"]["gameType"] = "Leningrad"
        d["rules"]["vist"] = "HalfResponsibility"
        d["rules"]["raspasyProgression"] = "Geom1244"
        d["rules"]["ending"] = "Sum"
    r = import_source(Source("p.json", _android(edit)))
    d = r.outputs[0].data
    assert d["deals"][2] == {"adjust": {"whists": {"Игрок 3": {"Игрок 1": 5}}}}
    assert d["rules"]["variant"] == "leningrad"
    assert d["rules"]["allpass"]["progression"] == [1, 2, 4]
    # Sum and HalfResponsibility are leningrad's own; Normal scoring and Zlob whists are not
    assert "end" not in d["rules"] and "responsibility" not in d["rules"]
    assert d["rules"]["whist_multiplier"] == 1 and d["rules"]["whist_style"] == "greedy"
    assert notes_of(r, "customScore")


# --- mathfewmatthews ---------------------------------------------------------------------------

MATH = SAMPLES["mathfewmatthews"][0]


def test_mathfewmatthews_sheet_with_running_log():
    r = imported(MATH)
    d = r.outputs[0].data
    assert d["format"] == "pref-sheet/1"
    assert d["rules"] == {"variant": "sochi", "pool": 20}
    assert d["pool"] == {"Анна": 2, "Борис": 0, "Вера": 0}
    assert d["whists"] == {"Борис": {"Анна": 4}, "Вера": {"Анна": 4}}
    assert d["log"] == [{"area": "pool", "player": "Анна", "value": 2},
                        {"area": "whists", "player": "Борис", "on": "Анна", "value": 4},
                        {"area": "whists", "player": "Вера", "on": "Анна", "value": 4}]
    assert d["meta"]["history"] == ["19:05 | Анна: 6♠, взяток 6; Борис вист 2, Вера вист 2"]
    assert d["meta"]["source"]["convention"] == "Сочи"
    assert r.check.compared and not r.check.differences


def test_mathfewmatthews_bare_and_pascal_case_states_give_the_same_sheet():
    state = json.loads((HERE / MATH).read_text(encoding="utf-8"))["state"]
    want = imported(MATH).outputs[0].data
    pascal = {k[0].upper() + k[1:]: v for k, v in state.items()}
    for form, data in (("bare state", state), ("PascalCase state (WinForms)", pascal)):
        src = Source("s.json", json.dumps(data, ensure_ascii=False).encode())
        assert [i.name for i in detect(src)] == ["mathfewmatthews"]
        r = import_source(src)
        assert r.version == form
        got = r.outputs[0].data
        assert {k: got[k] for k in ("players", "rules", "pool", "mountain", "whists", "log")} == \
               {k: want[k] for k in ("players", "rules", "pool", "mountain", "whists", "log")}


def test_mathfewmatthews_losses_and_a_log_that_disagrees():
    data = json.loads((HERE / MATH).read_text(encoding="utf-8"))
    data["state"]["convention"] = "Моя"
    data["state"]["customConventions"] = [{"name": "Моя"}]
    data["pendingEvents"] = [{}]
    data["state"]["pool"] = [3, 0, 0]
    r = import_source(Source("m.json", json.dumps(data, ensure_ascii=False).encode()))
    lost = {n.field for n in notes_of(r, loss=True)}
    assert {"convention", "customConventions", "pendingEvents"} <= lost
    (diff,) = r.check.differences
    assert diff.cells == [(("pool", "Анна", None), 2, 3)]


def test_mathfewmatthews_five_players_refused_with_its_place():
    data = json.loads((HERE / MATH).read_text(encoding="utf-8"))
    data["state"]["players"] += ["Галя", "Дима"]
    with pytest.raises(InputError) as err:
        import_source(Source("m.json", json.dumps(data, ensure_ascii=False, indent=1).encode()))
    p = err.value.problems[0]
    assert p.line is not None and "5 players" in p.message and p.text().startswith("m.json:")


# --- gchet -------------------------------------------------------------------------------------

GCHET = SAMPLES["gchet"][0]


def test_gchet_hash_verified_keys_never_copied_rules_mapped():
    r = imported(GCHET)
    assert notes_of(r, "sha256")[0].what == "verified over the exact bytes of data"
    d = r.outputs[0].data
    text = dump(d, "yaml") + dump(d, "json")
    for key in json.loads((HERE / GCHET).read_text(encoding="utf-8"))["data"]["keys"]:
        assert key not in text
    assert "keys" not in d["meta"]["source"]
    assert d["rules"] == {"variant": "leningrad", "pool": 10, "tens": "checked", "stalingrad": True,
                          "allpass": {"progression": [2, 4, 8], "exit": [7]}, "talon_bonus": True}
    assert d["players"] == ["Аня", "Боря", "R&D <bot>"]
    assert d["meta"]["source"]["bots"] == ["R&D <bot>"]
    assert d["mountain"] == {"Аня": 2, "Боря": 0, "R&D <bot>": 14}
    assert [e["deal"] for e in d["log"]] == [1, 1, 1, 2, 2, 3, 3, 3]
    assert d["log"][5] == {"deal": 3, "area": "mountain", "player": "R&D <bot>", "value": 14,
                           "note": "7♥ R&D <bot>: −1"}
    # misereTalon: true (the misère takes the talon, no bid without it) is leningrad's own
    # misere_without_talon: no, so it is mapped and not lost (it was reported lost before the option)
    assert {n.field for n in notes_of(r, loss=True)} == {"state.hands"}
    assert r.check.compared and not r.check.differences


def _gchet_with_rules(**knobs):
    """The gchet sample with its rules changed and its envelope's hash recomputed over the new
    data bytes (as gchet would write it)."""
    import hashlib
    data = json.loads((HERE / GCHET).read_text(encoding="utf-8"))["data"]
    data["state"]["rules"].update(knobs)
    for k in [k for k, v in knobs.items() if v is None]:
        del data["state"]["rules"][k]
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(body.encode()).hexdigest()
    raw = ('{"sha256":"' + digest + '","data":' + body + "}").encode()
    r = import_source(Source("save.json", raw))
    assert notes_of(r, "sha256")[0].what == "verified over the exact bytes of data"
    return r


@pytest.mark.parametrize("knobs, expected", [
    ({"misereTalon": False}, "below-nine-without-talon"),      # rules.go: legacy !misereTalon
    ({"misereTalon": None}, "below-nine-without-talon"),       # a Go bool left out reads false
    ({"misereTalon": True, "allowNoTalon": True}, "below-nine-without-talon"),   # allowNoTalon decides
    ({"misereTalon": False, "allowNoTalon": False}, None),
    ({"misereTalon": True}, None),                             # leningrad's default: no
])
def test_gchet_misere_talon_maps_to_misere_without_talon(knobs, expected):
    """gchet's rules.go AllowsNoTalonBids (allowNoTalon, else !misereTalon) turns on its bids without
    the talon, a misère over 9NT and a 9 over that (no_talon_test.go), which is prefcli's
    misere_without_talon: below-nine-without-talon (seed 003 l.108); leningrad's default is no."""
    r = _gchet_with_rules(**knobs)
    rules = r.outputs[0].data["rules"]
    assert rules.get("misere_without_talon") == expected
    assert not {n.field for n in notes_of(r, loss=True)} & {"rules.misereTalon", "rules.allowNoTalon"}
    assert validate_output("save.json", r.outputs[0]) == []      # the option and its value are valid


def test_gchet_misere_talon_not_a_boolean_is_located():
    data = (HERE / GCHET).read_text(encoding="utf-8").replace('"misereTalon":true', '"misereTalon":"yes"')
    with pytest.raises(InputError) as e:
        import_source(Source("save.json", data.encode()))
    assert "data.state.rules.misereTalon: expected true or false" in str(e.value)


def test_gchet_tampered_file_is_reported_and_strict_fails(tmp_path):
    raw = (HERE / GCHET).read_bytes().replace(b'"target":10', b'"target":12')
    path = tmp_path / "save.json"
    path.write_bytes(raw)
    r = import_source(Source(str(path), raw))
    (note,) = notes_of(r, "sha256")
    assert note.loss and "does NOT match" in note.what
    assert main(["import", str(path), "--strict", "-o", str(tmp_path / "o.yaml")]) == 1
    assert not (tmp_path / "o.yaml").exists()


def test_gchet_hash_not_checked_when_data_cannot_be_found():
    from prefcli.io.importers.gchet import data_span
    assert data_span('{"sha256":"x","data":{"a":[1,2]}}') == (21, 32)
    assert data_span('[1]') is None and data_span('{"sha256":"x"}') is None


# --- Bridge studio -----------------------------------------------------------------------------

def test_bridge_studio_problems_become_full_deals():
    r = imported("bridge-studio/preferansEn.bts")
    assert r.version == "bts version 5.2"
    labels = [o.label for o in r.outputs]
    assert labels == ["1", "3", "4", "5", "6", "7"]        # problem 2 is a 7-card end position
    assert [n.deal for n in notes_of(r, "deal", loss=True)] == [2]
    first = r.outputs[0].data
    assert first["players"] == ["N", "E", "W"]
    deal = first["deals"][0]
    # deal 1 A98.AT98..T87 QT7.KQJ.A.KQJ KJ.7.KQJT9.A9; play W; player E; absent S
    assert deal["hands"] == {"W": "KS JS 7H KD QD JD 10D 9D AC 9C", "N": "AS 9S 8S AH 10H 9H 8H 10C 8C 7C",
                             "E": "QS 10S 7S KH QH JH AD KC QC JC"}
    assert deal["dealer"] == "E"                           # so that W, who plays first, is the first hand
    assert deal["talon"] == deal["discard"] == "7D 8D"
    assert deal["contract"] == "6S" and deal["declarer"] == "E"
    assert deal["whist"] == {"W": "whist", "N": "whist"}
    assert deal["note"] == "Take all ten tricks for whist players."
    kova = r.outputs[3].data["deals"][0]
    assert kova["contract"] == "misere" and kova["declarer"] == "N" and "whist" not in kova
    assert kova["note"].endswith("given play: AD 9D JD")
    assert [n.deal for n in notes_of(r, "play", loss=True)] == [5]


def test_bridge_studio_cp1251_comments_and_crlf():
    raw = (HERE / "bridge-studio/preferansRu.bts").read_bytes()
    assert b"\r\n" in raw
    r = imported("bridge-studio/preferansRu.bts")
    assert notes_of(r, "comment")[0].what.startswith("the file is not UTF-8: read as cp1251")
    notes = [o.data["deals"][0].get("note", "") for o in r.outputs]
    assert notes[3].startswith("Мизер Ковалевской. Север хочет сыграть мизер,\nпомешайте ему!")
    assert all("\r" not in n for n in notes)
    en = imported("bridge-studio/preferansEn.bts")
    for a, b in zip(r.outputs, en.outputs):        # same deals as the English file
        assert a.data["deals"][0]["hands"] == b.data["deals"][0]["hands"]


def test_bridge_studio_absent_west_and_a_played_first_card():
    fri = imported("bridge-studio/preferansFriday.pts").outputs[0].data
    assert fri["players"] == ["N", "E", "S"]
    assert fri["deals"][0]["dealer"] == "S" and fri["deals"][0]["declarer"] == "S"   # play N
    solve = imported("bridge-studio/solvealldeals.pts")
    first = solve.outputs[0].data["deals"][0]
    assert first["dealer"] == "W"                   # JC is North's: North leads
    assert "given play: JC" in first["note"] and "position after 1 card" in first["note"]


# --- Preferanser -------------------------------------------------------------------------------

def test_preferanser_etudes_become_full_deals():
    lasker = imported("preferanser/4.json").outputs[0].data
    assert lasker["meta"]["event"] == "Мизер Ласкера"
    assert lasker["players"] == ["E", "S", "W"]
    deal = lasker["deals"][0]
    assert deal["contract"] == "misere" and deal["declarer"] == "S" and "whist" not in deal
    assert deal["talon"] == "KH QH"
    assert deal["dealer"] == "W"                    # firstTurn EAST
    assert deal["hands"]["S"] == "9S 8S 7S JC 9C 8C 7C 9D 8D 8H"
    one = imported("preferanser/1.json").outputs[0].data["deals"][0]
    assert one["contract"] == "6S" and one["declarer"] == "W" and one["whist"] == {"E": "whist", "S": "whist"}


# --- quick-entry notes -------------------------------------------------------------------------

def test_notes_import_equals_convert(tmp_path, capsys):
    path = tmp_path / "n.txt"
    path.write_text(NOTES, encoding="utf-8")
    r = import_source(Source(str(path), NOTES.encode()))
    d = r.outputs[0].data
    assert d["players"] == ["Ann", "Bob", "Cid"] and len(d["deals"]) == 2
    assert d["deals"][0] == {"contract": "6S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "whist"},
                             "tricks": {"Bob": 6, "Cid": 3, "Ann": 1}}


# --- the command -------------------------------------------------------------------------------

def test_cli_list(capsys):
    assert main(["import", "--list"]) == 0
    out = capsys.readouterr().out
    for imp in importers():
        assert imp.name in out


def test_cli_writes_one_document_and_reports_on_stderr(tmp_path, capsys):
    dest = tmp_path / "g.json"
    assert main(["import", str(HERE / ANDROID), "-o", str(dest)]) == 0
    err = capsys.readouterr().err
    assert "trump suit is not in the file" in err and "they agree" in err
    data = json.loads(dest.read_text(encoding="utf-8"))
    assert data["format"] == "pref-record/1"
    assert main(["import", str(HERE / ANDROID), "--report", "json", "-f", "json"]) == 0
    cap = capsys.readouterr()
    report = json.loads(cap.err)
    assert report["format"] == "pref-import-report/1"
    assert report["imports"][0]["from"] == "prefandroid" and report["imports"][0]["check"]["agree"] is True
    assert json.loads(cap.out)["players"][0] == "Игрок 1"


def test_cli_strict_check_and_usage(tmp_path, capsys):
    assert main(["import", str(HERE / ANDROID), "--strict"]) == 1
    assert "--strict" in capsys.readouterr().err
    assert main(["import", str(HERE / ANDROID), "--check"]) == 0
    assert capsys.readouterr().out == ""
    bad = tmp_path / "p.json"
    bad.write_bytes(_android(lambda d: (d["log"][4].__setitem__("value", 2),
                                        d["scores"][1].__setitem__("pulya", 2))))
    assert main(["import", str(bad), "--check"]) == 1
    assert "deal 2: all-pass" in capsys.readouterr().err
    assert main(["import", str(HERE / "bridge-studio/preferansEn.bts")]) == 2     # several documents
    assert main(["import", str(HERE / "bridge-studio/preferansEn.bts"), "--deal", "2"]) == 2   # an end position
    capsys.readouterr()
    assert main(["import", str(HERE / "bridge-studio/preferansEn.bts"), "--deal", "5"]) == 0
    assert "meta:\n  event: Bridge studio problem 5\n" in capsys.readouterr().out
    assert main(["import"]) == 2
    assert main(["import", str(HERE / ANDROID), "--from", "nope"]) == 2
    assert main(["import", str(HERE / ANDROID), "--from", "gchet"]) == 1


def test_cli_never_writes_over_its_input(tmp_path):
    src = tmp_path / "pulya.json"
    src.write_bytes((HERE / ANDROID).read_bytes())
    assert main(["import", str(src), "-o", str(src)]) == 1
    assert src.read_bytes() == (HERE / ANDROID).read_bytes()


def test_unknown_file_gets_a_located_error(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    assert main(["import", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:1:1: not a saved file of any known program")


def test_readme_import_examples_are_real_output(tmp_path):
    """Every `$ prefcli import …` line of the README's import section (without a pipe) prints
    exactly what follows it, run from a folder where its -o files can go."""
    import re
    import subprocess
    import sys
    root = Path(__file__).parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Importing other programs' files"):readme.index("## Exit codes")]
    (tmp_path / "tests").symlink_to(root / "tests")
    checked = 0
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ prefcli import") or "|" in line:
                continue
            want = []
            for nxt in lines[i + 1:]:
                if nxt.startswith("$ "):
                    break
                want.append(nxt)
            proc = subprocess.run([sys.executable, "-m", "prefcli", *line[2:].split()[1:]], cwd=str(tmp_path),
                                  capture_output=True, text=True, timeout=120)
            assert (proc.stderr + proc.stdout).splitlines() == want, line
            checked += 1
    assert checked >= 4


# --- the sheet's running log, read back by every command ----------------------------------------

def test_sheet_log_round_trips_and_other_commands_read_it(tmp_path, capsys):
    sheet = tmp_path / "save.yaml"
    assert main(["import", str(HERE / GCHET), "-o", str(sheet)]) == 0
    again = tmp_path / "again.yaml"
    assert main(["convert", str(sheet), "-o", str(again)]) == 0
    assert again.read_text(encoding="utf-8") == sheet.read_text(encoding="utf-8")   # canonical: unchanged
    as_json = tmp_path / "save.json"
    assert main(["convert", str(sheet), "-o", str(as_json)]) == 0
    assert json.loads(as_json.read_text(encoding="utf-8"))["log"][0] == {
        "deal": 1, "area": "pool", "player": "Аня", "value": 2, "note": "6♠ Аня"}
    capsys.readouterr()
    assert main(["settle", str(sheet), "-f", "json"]) == 0
    assert main(["validate", str(sheet), str(as_json)]) == 0


def test_a_bad_log_entry_is_a_located_validate_error(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("format: pref-sheet/1\nplayers: [A, B, C]\npool: {A: 2}\nmountain: {}\nwhists: {}\n"
                    "log:\n  - {area: pool, player: A, value: 2}\n  - {area: hens, player: Z, value: x}\n",
                    encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:8:12: log[1].area: 'hens' is not one of" in err and "log[1].value" in err
    path.write_text("format: pref-sheet/1\nplayers: [A, B, C]\npool: {}\nmountain: {}\nwhists: {}\n"
                    "log:\n  - {area: whists, player: B, value: 4}\n  - {area: pool, player: Z, value: 1}\n",
                    encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:7:5: log[0].on: a whists write names who it is written on" in err
    assert f"{path}:8:26: log[1].player: 'Z' is not seated" in err


@pytest.mark.skipif(not (SHARED / "samples").is_dir(), reason="../shared is not beside the checkout")
def test_the_copies_are_the_shared_samples():
    shared = SHARED / "samples"
    pairs = {"rostiktc2": "rostiktc2-preferans-score/reconstructed", "prefandroid": "prefandroid/reconstructed",
             "mathfewmatthews": "mathfewmatthews-preferans-score/reconstructed",
             "bridge-studio": "slovesnov-bridge-studio", "preferanser": "unisay-preferanser"}
    for name, folder in pairs.items():
        for rel in SAMPLES[name]:
            assert (HERE / rel).read_bytes() == (shared / folder / Path(rel).name).read_bytes(), rel


# --- located errors, one per importer ----------------------------------------------------------

def _damaged(rel: str, old: str, new: str) -> Source:
    text = (HERE / rel).read_bytes().decode("utf-8" if not rel.endswith("Ru.bts") else "cp1251")
    assert old in text
    return Source("f" + Path(rel).suffix, text.replace(old, new, 1).encode("utf-8"))


@pytest.mark.parametrize("name,rel,old,new,where,message", [
    ("rostiktc2", SAMPLES["rostiktc2"][0], '"suit":"picche"', '"suit":"spade"', "1:", "events[0].suit: 'spade' is not one of"),
    ("prefandroid", ANDROID, '"contract":6', '"contract":11', "1:", "gameLog[0].contract: 11 is out of range"),
    ("mathfewmatthews", MATH, '"pool": [2, 0, 0]', '"pool": [2, 0]', "15:13", "state.pool: 2 values for 3 players"),
    ("gchet", GCHET, '"target":10', '"target":"ten"', "1:", "data.state.target: expected a whole number"),
    ("preferanser", "preferanser/1.json", '"SPADE_ACE"', '"SPADE_1"', "15:9", "eastCards[0]: 'SPADE_1' is not a card"),
    ("bridge-studio", "bridge-studio/preferansEn.bts", "contract 7C", "contract 11C", "19:10", "contract: '11C' is not a contract"),
])
def test_each_importer_locates_a_bad_value(name, rel, old, new, where, message):
    src = _damaged(rel, old, new)
    with pytest.raises(InputError) as err:
        import_source(src, name)
    text = err.value.problems[0].text()
    assert text.startswith(f"{src.name}:{where}") and message in text, text


def test_prefandroid_four_players_passed_game_and_all_pass_dealer():
    def four(d):
        d["scores"].append({"name": "Игрок 4", "gora": 0, "pulya": 0, "visty": {}, "score": 0.0})
        d["gameLog"] = [
            {"gameType": "Normal", "dealer": 3, "contractor": 0, "contract": 7, "taken": {"0": 7, "1": 2, "2": 1},
             "visters": [], "multiplier": 1, "halfWithDealer": False, "customScore": None},
            {"gameType": "Raspasy", "dealer": 0, "contractor": 0, "contract": 0,
             "taken": {"1": 3, "2": 4, "3": 3}, "visters": [], "multiplier": 1, "halfWithDealer": False},
            {"gameType": "Miser", "dealer": 1, "contractor": 2, "contract": 0, "taken": {"0": 5, "2": 0, "3": 5},
             "visters": [], "multiplier": 1, "halfWithDealer": True}]
        d["log"] = []
    r = import_source(Source("p.json", _android(four)))
    deals = r.outputs[0].data["deals"]
    assert deals[0] == {"dealer": "Игрок 4", "contract": "7H", "declarer": "Игрок 1",
                        "whist": {"Игрок 2": "pass", "Игрок 3": "pass"}}
    assert [n.deal for n in notes_of(r, "taken", loss=True)] == [1]
    assert deals[1]["tricks"] == {"Игрок 2": 3, "Игрок 3": 4, "Игрок 4": 3}
    assert deals[2]["partner"] == "Игрок 2" and deals[2]["contract"] == "misere"
    assert r.problems == []


def test_the_json_report_follows_its_schema(tmp_path, capsys):
    from prefcli.io.schemas import validator_for
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    files = [str(HERE / r) for r in (ANDROID, "prefandroid/pulya_edited_own_whists.json", GCHET, MATH,
                                     "rostiktc2/preferans-backup-2026-07-14.json")] + [str(bad)]
    assert main(["import", *files, "--check", "--report", "json"]) == 1
    report = json.loads(capsys.readouterr().err)
    assert list(validator_for("import").iter_errors(report)) == []
    assert [e["file"] for e in report["errors"]] == [str(bad)]
    assert report["errors"][0]["problems"][0]["line"] == 1
    edited = report["imports"][1]["check"]
    assert edited["agree"] is False
    assert edited["differences"][0]["cells"] == [{"cell": "whists Игрок 1 on Игрок 2", "prefcli": 8, "program": 4}]
    assert main(["schema", "import"]) == 0
    assert json.loads(capsys.readouterr().out)["properties"]["format"]["const"] == "pref-import-report/1"


def test_fields_the_importer_does_not_read_are_reported():
    data = json.loads((HERE / SAMPLES["rostiktc2"][0]).read_text(encoding="utf-8"))
    data["config"]["houseRule"] = "x"
    data["events"][1]["bonus"] = 3
    r = import_source(Source("b.json", json.dumps(data).encode()))
    lost = {(n.deal, n.field): n.what for n in notes_of(r, loss=True)}
    assert lost[(None, "config")] == "unknown field(s) not carried: houseRule"
    assert lost[(2, "events[1]")] == "unknown field(s) not carried: bonus"
    assert "animations" in notes_of(r, "config", loss=False)[0].what


def test_a_folder_of_saves_skips_what_is_not_a_save(tmp_path, capsys):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "a.json").write_bytes((HERE / GCHET).read_bytes())
    (saves / "b.json").write_bytes((HERE / ANDROID).read_bytes())
    (saves / "settings.json").write_text('{"volume": 3}', encoding="utf-8")
    (saves / ".hidden.json").write_text("{", encoding="utf-8")
    assert main(["import", str(saves), "-o", f"{tmp_path / 'out'}/"]) == 0
    err = capsys.readouterr().err
    assert f"{saves / 'settings.json'}: skipped" in err and ".hidden" not in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.yaml", "b.yaml"]


def test_gchet_without_rules_assumes_the_programs_defaults():
    data = json.loads((HERE / GCHET).read_text(encoding="utf-8"))
    del data["data"]["state"]["rules"]
    r = import_source(Source("g.json", json.dumps(data, ensure_ascii=False).encode()))
    assert r.outputs[0].data["rules"] == imported(GCHET).outputs[0].data["rules"]
    assert notes_of(r, "rules")[0].what == "no rules in the state: gchet's defaults (DefaultRules) assumed"
    assert notes_of(r, "rules.hereConvention", loss=True)     # a default knob prefcli has no option for


def test_stdin_into_a_folder(tmp_path, monkeypatch):
    import io
    import sys
    raw = (HERE / "bridge-studio/preferansFriday.pts").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["import", "-", "-o", f"{tmp_path}/"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["stdin-1.yaml"]


def test_several_documents_into_a_file_or_an_impossible_folder_is_exit_1(tmp_path, capsys):
    """Six problems need -o FOLDER: a file of that name is neither replaced nor written into, and
    a folder that cannot be made is said in words (was exit 3, FileExistsError, from makedirs)."""
    src = str(HERE / "bridge-studio/preferansRu.bts")
    taken = tmp_path / "taken.yaml"
    taken.write_text("kept\n", encoding="utf-8")
    assert main(["import", "-q", src, "-o", str(taken)]) == 1
    err = capsys.readouterr().err
    assert f"{taken}: cannot write 6 documents here: it is not a folder" in err and "internal" not in err
    assert taken.read_text(encoding="utf-8") == "kept\n"
    assert main(["import", "-q", src, "-o", str(taken / "sub")]) == 1
    err = capsys.readouterr().err
    assert f"{taken / 'sub'}: cannot make the folder: a part of the path is not a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.yaml"]
    assert main(["import", "-q", src, "-o", str(tmp_path / "new" / "deeper")]) == 0
    assert len(list((tmp_path / "new" / "deeper").iterdir())) == 6


def test_the_analysis_reads_an_imported_etude(tmp_path, capsys):
    path = tmp_path / "lasker.yaml"
    assert main(["import", str(HERE / "preferanser/4.json"), "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "deal 1: misere by S (first hand E)" in out and "misère caught" in out


# --- every published sample: imported, or refused with a located reason ------------------------

def _sample_files():
    shared = SHARED / "samples"
    if not shared.is_dir():
        return []
    return sorted(p for p in shared.rglob("*") if p.is_file() and p.name != "README.md")


UNSUPPORTED = {   # sample → (line, column, what the reason names)
    "eshavlyugin-preferans/engine.tests": (1, 1, "test deals of eshavlyugin/Preferans"),
    "eshavlyugin-preferans/passout.tests": (2, 1, "test deals of eshavlyugin/Preferans"),
    "eshavlyugin-preferans/solvers.tests": (2, 1, "test deals of eshavlyugin/Preferans"),
    "vladstefanovich-preferans-db/data.sql": (2, 1, "an SQL database dump"),
    "vladstefanovich-preferans-db/season-2019-derived.csv": (1, 1, "a table of totals (CSV: game by AA, AM, VK, VS)"),
}


@pytest.mark.skipif(not (SHARED / "samples").is_dir(), reason="../shared is not beside the checkout")
@pytest.mark.parametrize("path", _sample_files(), ids=lambda p: str(p.relative_to(SHARED / "samples")))
def test_every_shared_sample_imports_or_is_refused_with_a_located_reason(path, tmp_path, capsys):
    rel = str(path.relative_to(SHARED / "samples"))
    code = main(["import", str(path), "-o", f"{tmp_path}/"])
    err = capsys.readouterr().err
    if rel in UNSUPPORTED:
        line, col, what = UNSUPPORTED[rel]
        assert code == 1 and not list(tmp_path.iterdir())
        assert f"{path}:{line}:{col}: not imported: {what}" in err
    else:
        assert code == 0, err
        assert list(tmp_path.iterdir())


def test_the_unsupported_formats_are_recognised_from_their_content(tmp_path, capsys):
    cases = {
        "deals.tests": ("3\nQs Js Jc 10c Jd 8d 7d Kh 10h 7h\nAs 10s 9s Ac Qc 7c Ad Qd 9d Ah\n"
                        "Ks 8s 7s Kc 9c 8c Kd 10d Qh Jh\n1\n2\n6d\n6\n", "2:1: not imported: test deals"),
        "club.sql": ("-- a dump\n\n  INSERT INTO Games (id) values (1);\n", "3:3: not imported: an SQL database dump"),
        "totals.csv": ("game,A,B,C\n1,10,-4,-6\n2,-3,3,0\n", "1:1: not imported: a table of totals (CSV: game by A, B, C)"),
    }
    for name, (text, where) in cases.items():
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        assert main(["import", str(p), "-o", str(tmp_path / "o.yaml")]) == 1
        assert f"{p}:{where}" in capsys.readouterr().err
    # what is none of them keeps the general answer
    p = tmp_path / "other.txt"
    p.write_text("As Ks\nhello\n", encoding="utf-8")
    assert main(["import", str(p), "-o", str(tmp_path / "o.yaml")]) == 1
    assert f"{p}:1:1: not a saved file of any known program" in capsys.readouterr().err


def test_prefandroid_sample_scores_as_its_readme_steps_the_program():
    """The sample's README steps PrefAndroid's Calculation.writeGame() through its two deals:
    6♠ by player 1 with player 0 whisting alone (tricks 0:2 1:6 2:2) → pulya[1]=2, visty[0][1]=8;
    the all-pass (tricks 0:3 1:0 2:7) → gora[0]=3, gora[2]=7, pulya[1]=3. prefcli's rescoring of
    the imported record writes the same."""
    from prefcli.model.build import record_from_data
    from prefcli.scoring import score
    data = imported(ANDROID).outputs[0].data
    result = score(record_from_data(json.loads(dump(data, "json")), strict=True))
    p0, p1, p2 = data["players"]

    def written(sheet):
        return {(a, b): v for a, row in sheet.whists.items() for b, v in row.items() if v}
    first = result.sheet(1)
    assert (first.pool[p1], written(first)) == (2, {(p0, p1): 8})
    sheet = result.sheet()
    assert sheet.pool == {p0: 0, p1: 3, p2: 0}
    assert sheet.mountain == {p0: 3, p1: 0, p2: 7}
    assert written(sheet) == {(p0, p1): 8}
