/* page.js - the replay page of `herald replay --format=html`: rebuilds each
 * position from the first and the changes (D.games[g].steps[i].delta), and
 * draws it.  Everything from the record goes in through textContent or
 * attribute values, never as markup.  Fragment: #step=N opens at step N
 * (0: the start); #keys=rrlhe presses Right, Right, Left, Home, End. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("herald-data").textContent);
  var SVG = "http://www.w3.org/2000/svg";
  var game = D.games[0], cur = 0, positions = [];

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }

  /* A change as replay-html.c writes it: {"$v": value} replaces, {"$a":
   * {i: change}} changes array items, {"$r": 1} removes a key, any other
   * object changes the keys it names. */
  function apply(base, d) {
    if (d === undefined) return base;
    if (d !== null && typeof d === "object" && "$v" in d) return d.$v;
    if (d !== null && typeof d === "object" && "$a" in d) {
      var a = base.slice();
      for (var i in d.$a) a[+i] = apply(a[+i], d.$a[i]);
      return a;
    }
    var o = {};
    for (var k in base) o[k] = base[k];
    for (var k2 in d) {
      if (d[k2] !== null && typeof d[k2] === "object" && d[k2].$r) delete o[k2];
      else o[k2] = apply(base[k2], d[k2]);
    }
    return o;
  }

  function rebuild() {
    positions = [game.start.position];
    for (var i = 0; i < game.steps.length; i++)
      positions.push(apply(positions[i], game.steps[i].delta));
  }

  /* ---------------------------------------------------------------- games */
  /* The symbols as coloured letters: every font has those. */
  var SYMBOL = { lance: ["L", "#7a5230"], bow: ["B", "#2e7d32"], swords: ["S", "#546e7a"],
                 helmet: ["H", "#6a1b9a"], banner: ["F", "#c62828"] };

  function drawKoc(p, box) {
    var seats = p.players;
    var w = 5 * 130 + 20, h = seats.length * 270 + 20;
    var s = add(box, sv("svg", { viewBox: "0 0 " + w + " " + h, "class": "board koc",
                                role: "img", "aria-label": "the five sectors" }));
    seats.forEach(function (pl, r) {
      var y0 = 10 + r * 270;
      add(s, sv("text", { x: 10, y: y0 + 12, "class": "seat" },
                pl.seat + (pl.name ? " (" + pl.name + ")" : "") + (pl.first ? ", first" : "") +
                ", " + pl.victory_markers + " marker" + (pl.victory_markers === 1 ? "" : "s") +
                (pl.points !== undefined ? ", " + pl.points + " points" : "")));
      pl.sectors.forEach(function (sec, k) {
        var x0 = 10 + k * 130;
        var g = add(s, sv("g", { "class": "sector", "data-seat": pl.seat, "data-sector": sec.sector,
          "data-cards": sec.cards.map(function (c) { return c.id; }).join(" ") }));
        add(g, sv("rect", { x: x0, y: y0 + 20, width: 120, height: 235, rx: 6,
                            "class": sec.victory_marker ? "won" : "" }));
        add(g, sv("text", { x: x0 + 6, y: y0 + 36, "class": "small" }, "sector " + sec.sector));
        sec.cards.forEach(function (c, i) {
          add(g, sv("rect", { x: x0 + 6, y: y0 + 44 + i * 30, width: 108, height: 26, rx: 3, "class": "card" }));
          add(g, sv("text", { x: x0 + 10, y: y0 + 62 + i * 30 }, c.id));
          c.symbols.forEach(function (k, j) {
            var sym = SYMBOL[k] || ["?", "#000"];
            add(g, sv("rect", { x: x0 + 44 + j * 14, y: y0 + 49 + i * 30, width: 13, height: 16, rx: 2,
                                style: "fill:" + sym[1], "class": "symbox", "data-symbol": k }));
            add(g, sv("text", { x: x0 + 50.5 + j * 14, y: y0 + 62 + i * 30, "class": "sym mid" }, sym[0]));
          });
        });
        var a = sec.army, words = [];
        [["regiment", a.regiments], ["battalion", a.battalions], ["company", a.companies]].forEach(function (q) {
          q[1].forEach(function (k) { words.push(q[0] + " " + k); });
        });
        if (!words.length && sec.cards.length) words.push("single symbols");
        words.forEach(function (t, j) {
          add(g, sv("text", { x: x0 + 6, y: y0 + 180 + j * 13, "class": "small" },
                    (j === 0 ? (a.complete ? "army: " : "so far: ") : "") + t));
        });
        if (sec.victory_marker) {
          add(g, sv("circle", { cx: x0 + 104, cy: y0 + 36, r: 10, "class": "marker" }));
          add(g, sv("text", { x: x0 + 104, y: y0 + 40, "class": "small mid" }, "#" + sec.victory_marker));
        }
      });
    });
    var info = add(box, el("div", { "class": "info" }));
    add(info, el("p", { "class": "small" }, "Symbols: L lance, B bow, S swords, H helmet, F banner."));
    add(info, el("p", {}, "Territories: " + p.territories.map(function (t) {
      return t.sector + " " + (t.winner ? t.winner + " #" + t.marker : "open"); }).join("; ")));
    add(info, el("p", {}, "Round " + p.round + ", " + p.variant + " variant; deck: " + p.deck +
                  " cards" + (p.result ? "; result: " + p.result : p.to_move ? "; to move: " + p.to_move : "")));
    seats.forEach(function (pl) {
      add(info, el("p", { "class": "hand", "data-seat": pl.seat },
        pl.seat + " hand (" + pl.hand.count + "): " +
        pl.hand.cards.map(function (c) { return c.id; }).join(", ") +
        (pl.hand.hidden ? (pl.hand.cards.length ? ", " : "") + pl.hand.hidden + " hidden" : "")));
    });
  }

  var COLOURS = { yellow: "#e0b000", blue: "#2f6fd0", red: "#c83232", green: "#2e9a4a" };

  /* The dice of a combat as its action writes them (4.2): "/ 1 3 4 4 6 = 3
   * vs 1 1 2 3 mod 2>4 3>4 = 2 /". */
  function drawDice(st, box) {
    var m = st && /\/\s*([\d ]+?)\s*(?:mod ([^=\/]*))?=\s*(\d+)\s+vs\s+([\d ]+?)\s*(?:mod ([^=\/]*))?=\s*(\d+)/.exec(st.action);
    if (!m) return;
    var sides = [["attack", m[1], m[2], m[3]], ["defence", m[4], m[5], m[6]]];
    var s = add(box, sv("svg", { viewBox: "0 0 360 108", "class": "dice", role: "img", "aria-label": "the dice" }));
    sides.forEach(function (sd, r) {
      add(s, sv("text", { x: 0, y: 22 + r * 54, "class": "small" }, sd[0]));
      sd[1].trim().split(/\s+/).forEach(function (v, i) {
        add(s, sv("rect", { x: 60 + i * 30, y: 4 + r * 54, width: 26, height: 26, rx: 5, "class": "die", "data-die": v }));
        add(s, sv("text", { x: 73 + i * 30, y: 22 + r * 54, "class": "mid" }, v));
      });
      add(s, sv("text", { x: 60, y: 46 + r * 54, "class": "small" },
                sd[3] + (sd[3] === "1" ? " hit" : " hits") + (sd[2] ? " (modified " + sd[2].trim() + ")" : "")));
    });
  }

  function drawCk(p, box, st) {
    var L = (D.layouts["crusader-kingdoms"] || {}), at = (L.maps || {})[p.map] || {};
    var colour = {};
    p.factions.forEach(function (f) { colour[f.id] = COLOURS[f.colour] || f.colour || "#888"; });
    var s = add(box, sv("svg", { viewBox: "0 0 " + (L.width || 760) + " " + (L.height || 1000),
                                "class": "board ck", role: "img", "aria-label": "the map" }));
    var idx = {};
    p.areas.forEach(function (a) { idx[a.id] = a; });
    var borders = game.map_borders || {};
    p.areas.forEach(function (a) {
      (borders[a.id] || []).forEach(function (b) {
        if (a.id < b && at[a.id] && at[b])
          add(s, sv("line", { x1: at[a.id][0], y1: at[a.id][1], x2: at[b][0], y2: at[b][1], "class": "border" }));
      });
    });
    p.areas.forEach(function (a, i) {
      var xy = at[a.id] || [40 + (i % 6) * 110, 40 + Math.floor(i / 6) * 110];
      var g = add(s, sv("g", { "class": "area", "data-area": a.id, "data-owner": a.owner || "",
                               "data-castle": a.castle }));
      add(g, sv("circle", { cx: xy[0], cy: xy[1], r: 34, fill: a.owner ? colour[a.owner] : "#ddd" }));
      add(g, sv("text", { x: xy[0], y: xy[1] - 40, "class": "name" }, a.name || a.id));
      add(g, sv("path", { d: "M" + (xy[0] - 12) + " " + (xy[1] - 22) + "h24v14l-12 10l-12-10z", "class": "shield" }));
      add(g, sv("text", { x: xy[0], y: xy[1] - 10, "class": "shieldnum" }, a.shield));
      if (a.castle !== "none") {
        add(g, sv("rect", { x: xy[0] - 14, y: xy[1] + 2, width: 28, height: 20, "class": "castle" }));
        add(g, sv("text", { x: xy[0], y: xy[1] + 17, "class": "small mid" },
                  a.castle === "+1" ? "+1" : a.castle === "regular" ? "\u265C" : "\u00B7"));
      }
      if (a.number) add(g, sv("text", { x: xy[0] + 30, y: xy[1] + 30, "class": "small" }, "#" + a.number + " " + a.points + "VP"));
    });
    var info = add(box, el("div", { "class": "info" }));
    drawDice(st, info);
    add(info, el("p", {}, "Scenario " + p.scenario + ", turn " + p.turn + " of " + p.turns + ", round " + p.round +
                  (p.result ? "; result: " + p.result : p.to_act ? "; " + p.to_act + " to act" : "") +
                  (p.victory_points !== undefined ? "; crusaders' victory points " + p.victory_points : "")));
    var track = add(info, sv("svg", { viewBox: "0 0 330 " + (26 * p.factions.length + 20), "class": "track",
                                      role: "img", "aria-label": "the bonus track" }));
    for (var b = -5; b <= 5; b++)
      add(track, sv("text", { x: 165 + b * 28, y: 14, "class": "small mid" }, (b > 0 ? "+" : "") + b));
    p.factions.forEach(function (f, i) {
      var x = 165 + Math.max(-5, Math.min(5, f.bonus)) * 28;
      add(track, sv("circle", { cx: x, cy: 30 + i * 26, r: 10, fill: colour[f.id], "class": "bonus",
                                "data-faction": f.id, "data-bonus": f.bonus }));
      add(track, sv("text", { x: 4, y: 34 + i * 26, "class": "small" }, f.id));
    });
    var t = add(info, el("table", { "class": "factions" }));
    p.factions.forEach(function (f) {
      var tr = add(t, el("tr", { "data-faction": f.id }));
      var sw = add(tr, el("td"));
      sw.style.background = colour[f.id];
      add(tr, el("td", {}, f.id));
      add(tr, el("td", {}, "bonus " + (f.bonus > 0 ? "+" : "") + f.bonus));
      add(tr, el("td", {}, "castles " + f.castles_on_map + "/" + f.castles));
      var tr2 = add(t, el("tr"));
      add(tr2, el("td"));
      add(tr2, el("td", { "class": "hand", colspan: 3 }, f.hand ? "hand " + f.hand.size + ": " +
        f.hand.cards.join(", ") + (f.hand.unknown ? (f.hand.cards.length ? ", " : "") + f.hand.unknown + " unknown" : "")
        : "scripted"));
    });
    add(info, el("p", {}, p.decks.map(function (d) { return "deck " + d.id + ": " + d.to_draw + " to draw, " +
                                                   d.discarded + " discarded"; }).join("; ")));
    if (p.face_up.length) add(info, el("p", {}, "face up: " + p.face_up.map(function (f) {
      return f.card + " (" + f.owner + (f.target ? " on " + f.target : "") + ")"; }).join(", ")));
  }

  function drawEnc(p, box) {
    var n = p.players.length, w = 700, h = n * 170 + 10;
    var s = add(box, sv("svg", { viewBox: "0 0 " + w + " " + h, "class": "board enc",
                                role: "img", "aria-label": "the towns and towers" }));
    p.players.forEach(function (pl, r) {
      var y0 = 10 + r * 170;
      add(s, sv("text", { x: 10, y: y0 + 12, "class": "seat" }, pl.seat + (pl.name ? " (" + pl.name + ")" : "") +
        ", team " + pl.team + ", deck " + pl.deck + (pl.out ? ": out (" + pl.out + ")" : "")));
      var g = add(s, sv("g", { "class": "tower", "data-seat": pl.seat, "data-resistance": pl.tower.resistance }));
      var frac = pl.tower.of > 0 ? Math.max(0, pl.tower.resistance) / pl.tower.of : 0;
      add(g, sv("rect", { x: 14, y: y0 + 24, width: 40, height: 120, "class": "towerbox" }));
      add(g, sv("rect", { x: 14, y: y0 + 24 + 120 * (1 - frac), width: 40, height: 120 * frac, "class": "towerfill" }));
      add(g, sv("text", { x: 12, y: y0 + 160, "class": "small" }, "tower " + pl.tower.id + ": " + pl.tower.resistance + " of " + pl.tower.of));
      var town = add(s, sv("g", { "class": "town", "data-seat": pl.seat,
                                  "data-cards": pl.town.map(function (c) { return c.id; }).join(" ") }));
      pl.town.forEach(function (c, i) {
        var x = 70 + (i % 6) * 90, y = y0 + 24 + Math.floor(i / 6) * 44;
        add(town, sv("rect", { x: x, y: y, width: 84, height: 40, rx: 4, "class": "card" + (c.active ? "" : " inactive") }));
        add(town, sv("text", { x: x + 4, y: y + 16, "class": "small" }, c.id));
        add(town, sv("text", { x: x + 4, y: y + 32, "class": "small" }, c.value + (c.effect_used ? " used" : "")));
      });
      var st = add(s, sv("g", { "class": "stacks", "data-seat": pl.seat }));
      pl.stacks.forEach(function (k, i) {
        var x = 70 + i * 60, y = y0 + 116;
        add(st, sv("rect", { x: x, y: y, width: 50, height: 30, rx: 3, "class": "back " + k.state }));
        add(st, sv("text", { x: x + 4, y: y + 20, "class": "small" }, k.stack + ": " + k.count));
      });
    });
    var info = add(box, el("div", { "class": "info" }));
    add(info, el("p", {}, "Turn " + p.turn + ", " + p.current + "'s turn, phase " + p.phase +
                  (p.result ? "; result: " + p.result : p.to_act ? "; " + p.to_act + " to act" : "")));
    p.players.forEach(function (pl) {
      var res = Object.keys(pl.resources).filter(function (k) { return pl.resources[k]; })
        .map(function (k) { return k + " " + pl.resources[k]; }).join(", ") || "none";
      add(info, el("p", { "class": "hand", "data-seat": pl.seat }, pl.seat + ": hand " + pl.hand.length +
        (pl.hand.length ? " (" + pl.hand.join(", ") + ")" : "") + "; piles " + pl.piles.join(" ") +
        "; discard " + pl.discard + "; resources " + res + (pl.wear ? "; wear " + pl.wear : "")));
    });
    if (p.war) {
      var w2 = p.war;
      add(info, el("p", { "class": "war" }, "War (" + w2.stage + "): " + w2.attacker + " attacks " + w2.defender +
        (w2.attacker_card ? "; attacking " + w2.attacker_card.id + " " + w2.attacker_card.value : "") +
        (w2.defender_card ? "; defending " + w2.defender_card.id + " " + w2.defender_card.value : "") +
        (w2.target ? "; target " + (w2.target_card || w2.target) : "") +
        "; wear " + w2.attacker_wear + " / " + w2.defender_wear + "; waiting for " + w2.waiting));
    }
  }

  var DRAW = { "kingdoms-of-crusaders": drawKoc, "crusader-kingdoms": drawCk, "encrucijada": drawEnc };

  /* ---------------------------------------------------------------- page */
  /* A comment's text as a block: its later lines keep their indentation
   * relative to each other, less what they all share. */
  function block(text) {
    var lines = text.replace(/^\s*\n/, "").replace(/\s+$/, "").split("\n"), common = null;
    lines.slice(1).forEach(function (l) {
      if (/\S/.test(l)) { var n = /^[ \t]*/.exec(l)[0].length; common = common === null ? n : Math.min(common, n); }
    });
    return lines.map(function (l, i) { return i ? l.slice(common || 0) : l.replace(/^\s+/, ""); }).join("\n");
  }

  /* Comments and NAGs, a run of ';' comments as one block. */
  function annotations(box, list) {
    var run = null;
    (list || []).forEach(function (a) {
      if ("nag" in a) {
        run = null;
        add(box, el("p", { "class": "nag" }, "$" + a.nag + (a.words ? ": " + a.words : "")));
      } else if (a.line_comment && run) {
        run.textContent += "\n" + a.comment.replace(/^ /, "");
      } else {
        var p = add(box, el("p", { "class": "comment" }, a.line_comment ? a.comment.replace(/^ /, "") : block(a.comment)));
        run = a.line_comment ? p : null;
      }
    });
  }

  function actionText(st) {
    return (st.movenum ? st.movenum + ". " : "") + st.seat + ": " + st.action + (st.glyph || "");
  }

  function drawStep(i, target) {
    var st = i > 0 ? game.steps[i - 1] : null, p = positions[i];
    var sheet = add(target, el("section", { "class": "sheet", "data-step": i }));
    var head = add(sheet, el("div", { "class": "now" + (st && !st.legal ? " illegal" : "") }));
    if (!st) {
      add(head, el("h2", {}, "Start"));
      annotations(head, game.start.comments);
    } else {
      if (st.variation) add(head, el("p", { "class": "label" }, st.variation));
      annotations(head, st.before);
      add(head, el("h2", {}, "[" + st.ply + "] " + actionText(st)));
      if (st.glyph_words) add(head, el("p", { "class": "nag" }, st.glyph + ": " + st.glyph_words));
      annotations(head, st.after);
      st.diagnostics.forEach(function (dg) {
        add(head, el("p", { "class": "diag " + dg.severity },
          (dg.severity === "error" ? "illegal" : dg.severity) + ": " + dg.message + " [" + dg.code + "]"));
        dg.notes.forEach(function (n) { add(head, el("p", { "class": "note" }, n)); });
      });
      if (!st.legal) add(head, el("p", { "class": "diag" }, "The position before the illegal action:"));
    }
    if (i === game.steps.length) {
      if (game.end.result) add(head, el("p", { "class": "result" }, "Result: " + game.end.result));
      annotations(head, game.end.comments);
    }
    var board = add(sheet, el("div", { "class": "boardbox" }));
    if (p && DRAW[p.game]) DRAW[p.game](p, board, st);
    return sheet;
  }

  var app = document.getElementById("app");
  var view, list;

  function show(i) {
    cur = Math.max(0, Math.min(game.steps.length, i));
    view.textContent = "";
    drawStep(cur, view);
    document.getElementById("status").setAttribute("data-step", cur);
    document.getElementById("status").textContent = cur + " / " + game.steps.length;
    var items = list.querySelectorAll("li");
    for (var k = 0; k < items.length; k++) items[k].classList.toggle("current", k === cur);
    /* the list scrolls, not the page */
    if (items[cur]) list.scrollTop = items[cur].offsetTop - list.offsetTop - list.clientHeight / 2;
  }

  function build() {
    app.textContent = "";
    rebuild();
    var top = add(app, el("header"));
    add(top, el("h1", {}, game.title));
    if (D.games.length > 1) {
      var pick = add(top, el("select", { "aria-label": "game" }));
      D.games.forEach(function (g, k) { add(pick, el("option", { value: k }, "game " + (k + 1) + ": " + g.title)); });
      pick.value = D.games.indexOf(game);
      pick.addEventListener("change", function () { game = D.games[+pick.value]; build(); show(0); });
    }
    annotations(add(top, el("div", { "class": "header-comments" })), game.header_comments);
    if (D.print) {
      rebuild();
      for (var i = 0; i <= game.steps.length; i++) drawStep(i, app);
      return;
    }
    var nav = add(app, el("nav"));
    [["|\u25C0", "first", function () { show(0); }], ["\u25C0", "back", function () { show(cur - 1); }],
     ["\u25B6", "forward", function () { show(cur + 1); }],
     ["\u25B6|", "last", function () { show(game.steps.length); }]].forEach(function (b) {
      add(nav, el("button", { type: "button", title: b[1], "aria-label": b[1] }, b[0])).addEventListener("click", b[2]);
    });
    add(nav, el("span", { id: "status" }));
    var main = add(app, el("main"));
    view = add(main, el("div", { "class": "view" }));
    list = add(main, el("ol", { "class": "moves", start: 0 }));
    var start = add(list, el("li", {}, "start"));
    start.addEventListener("click", function () { show(0); });
    game.steps.forEach(function (st, k) {
      var li = add(list, el("li", { "class": (st.legal ? "" : "illegal ") + "depth" + Math.min(st.depth, 3) },
                            actionText(st)));
      li.addEventListener("click", function () { show(k + 1); });
    });
  }

  document.addEventListener("keydown", function (e) {
    if (D.print) return;
    if (e.key === "ArrowRight") show(cur + 1);
    else if (e.key === "ArrowLeft") show(cur - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(game.steps.length);
    else return;
    e.preventDefault();
  });

  build();
  if (!D.print) {
    var m = /step=(\d+)/.exec(location.hash);
    show(m ? +m[1] : 0);
    var keys = /keys=([rlhe]+)/.exec(location.hash);
    var names = { r: "ArrowRight", l: "ArrowLeft", h: "Home", e: "End" };
    if (keys) keys[1].split("").forEach(function (c) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: names[c], bubbles: true }));
    });
  }
  /* for bench/replay-page.sh: when the page was drawn, from its start */
  app.setAttribute("data-drawn-ms", Math.round(performance.now()));
})();
