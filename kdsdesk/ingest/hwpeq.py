"""한글 equation scripts (``hp:script``, 한글's own equation language) → searchable linear text.

``V _{u} LEQ phi V _{n}`` → ``V_u ≤ φV_n``; ``{a} over {b}`` → ``(a)/(b)`` (a bare number stays bare:
``{1} over {6}`` → ``1/6``); ``sqrt {f_{ck}}`` → ``√(f_ck)``; ``root {3} of {x}`` → ``√[3](x)``;
``LEFT ( … RIGHT )`` → ``( … )``; Greek names (``alpha`` → α, ``ALPHA``/``Alpha`` → Α); ``TIMES`` ×, ``CDOT`` ·,
``LEQ`` ≤, ``GEQ`` ≥, ``!=`` ≠, ``PM``/``+-`` ±, ``->`` →; sub/superscripts ``x_i``, ``x^2``, ``x_{v,min}``;
`` ` `` and ``~`` are spaces; font switches ``rm``/``it``/``bold`` are dropped; ``matrix``/``pmatrix``, ``cases``
and ``pile`` become rows separated by ``;``. Whitespace in a script is not significant (as in 한글).

A recursive-descent reader over a small token list; unknown commands stay as their words, so nothing is lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ",
    "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "ϕ", "chi": "χ", "psi": "ψ",
    "omega": "ω",
}
GREEK_UPPER = {
    "alpha": "Α", "beta": "Β", "gamma": "Γ", "delta": "Δ", "epsilon": "Ε", "zeta": "Ζ", "eta": "Η",
    "theta": "Θ", "iota": "Ι", "kappa": "Κ", "lambda": "Λ", "mu": "Μ", "nu": "Ν", "xi": "Ξ", "omicron": "Ο",
    "pi": "Π", "rho": "Ρ", "sigma": "Σ", "tau": "Τ", "upsilon": "Υ", "phi": "Φ", "chi": "Χ", "psi": "Ψ",
    "omega": "Ω",
}
RELATIONS = {
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "image": "≒",
    "sim": "∼", "simeq": "≃", "cong": "≅", "equiv": "≡", "propto": "∝", "rarrow": "→", "larrow": "←",
    "lrarrow": "↔", "rightarrow": "→", "leftarrow": "←", "drarrow": "⇒", "dlarrow": "⇐", "dlrarrow": "⇔",
    "ll": "≪", "gg": "≫", "subset": "⊂", "supset": "⊃", "subseteq": "⊆", "supseteq": "⊇", "in": "∈",
    "notin": "∉", "perp": "⊥", "vert": "|",
}
OPERATORS = {"times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "circ": "∘", "bullet": "•",
             "union": "∪", "inter": "∩", "cup": "∪", "cap": "∩", "smallinter": "∩", "smallunion": "∪"}
SYMBOLS = {
    "inf": "∞", "infinity": "∞", "triangle": "△", "nabla": "∇", "partial": "∂", "deg": "°", "angle": "∠",
    "prime": "′", "therefore": "∴", "because": "∵", "cdots": "⋯", "ldots": "…", "vdots": "⋮", "ddots": "⋱",
    "forall": "∀", "exist": "∃", "emptyset": "∅", "angstrom": "Å", "ohm": "Ω", "hbar": "ℏ", "lbrace": "{",
    "rbrace": "}", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋", "langle": "⟨", "rangle": "⟩",
    "dag": "†", "ddag": "‡", "aleph": "ℵ", "wp": "℘", "ell": "ℓ", "box": "□", "diamond": "◇",
}
BIG_OPS = {"sum": "Σ", "smallsum": "Σ", "prod": "Π", "smallprod": "Π", "int": "∫", "oint": "∮", "dint": "∬",
           "tint": "∭", "coprod": "∐", "bigcup": "⋃", "bigcap": "⋂", "lim": "lim", "liminf": "lim inf",
           "limsup": "lim sup"}
FUNCTIONS = {"sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
             "coth", "log", "ln", "lg", "exp", "max", "min", "det", "gcd", "mod", "arg", "sup", "inf"}
ACCENTS = {"vec": "\u20d7", "bar": "\u0304", "hat": "\u0302", "dot": "\u0307", "ddot": "\u0308",
           "tilde": "\u0303", "acute": "\u0301", "grave": "\u0300", "check": "\u030c", "under": "\u0332",
           "dyad": "\u20e1", "arch": "\u0311"}
FONT_SWITCHES = {"rm", "it", "bold", "rmbold", "itbold", "bolditalic", "scriptstyle", "displaystyle"}
MATRICES = {"matrix": ("[", "]"), "pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "dmatrix": ("|", "|"),
            "cases": ("{", "}"), "pile": ("", ""), "lpile": ("", ""), "rpile": ("", ""), "eqalign": ("", ""),
            "stack": ("", ""), "rstack": ("", "")}
MULTI_SYMS = {"->": "→", "<-": "←", "<->": "↔", "=>": "⇒", "<=": "≤", ">=": "≥", "!=": "≠", "+-": "±",
              "-+": "∓", "==": "≡", "<<": "≪", ">>": "≫", "...": "…"}
REL_CHARS = set("=<>≤≥≠≒≈→←↔⇒⇐⇔≡∝∼≃≅≪≫⊂⊃⊆⊇∈∉")
OP_CHARS = set("+-±∓×·÷∘∪∩−")

_TOKEN = re.compile(
    r'(?P<ws>\s+)|(?P<str>"[^"]*")|(?P<num>\d+(?:\.\d+)?|\.\d+)|(?P<word>[A-Za-z]+)|(?P<hangul>[가-힣]+)'
    r"|(?P<multi><->|->|<-|=>|<=|>=|!=|\+-|-\+|==|<<|>>|\.\.\.)|(?P<ch>.)",
    re.S,
)
_SIMPLE = re.compile(r"[0-9A-Za-z가-힣α-ωΑ-Ωϑϕϱς.′']+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?|\.\d+")
_MAX_DEPTH = 64  # nesting of braces/commands; each level costs ~5 Python frames


@dataclass
class _Node:
    text: str
    kind: str  # atom | func | bigop | op | rel | sep | open | close | space | slash
    scripted: bool = False


class _Reader:
    def __init__(self, script: str) -> None:
        self.toks: list[tuple[str, str]] = []
        for m in _TOKEN.finditer(script):
            kind = m.lastgroup or "ch"
            self.toks.append((kind, m.group()))
        self.i = 0
        self.depth = 0

    # -- token helpers ---------------------------------------------------------------------------------------
    def peek(self, skip_ws: bool = True) -> tuple[str, str] | None:
        j = self.i
        while skip_ws and j < len(self.toks) and self.toks[j][0] == "ws":
            j += 1
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> tuple[str, str] | None:
        while self.i < len(self.toks) and self.toks[self.i][0] == "ws":
            self.i += 1
        if self.i >= len(self.toks):
            return None
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def at_word(self, *words: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == "word" and tok[1].lower() in words

    # -- grammar ---------------------------------------------------------------------------------------------
    def items(self, stops: frozenset[str]) -> list[_Node]:
        """Nodes until a stop (``}``, ``right``, ``#``, ``&`` …) or the end; the stop is not consumed."""
        out: list[_Node] = []
        while True:
            tok = self.peek(skip_ws=False)
            if tok is None:
                return out
            kind, val = tok
            if kind == "ws":
                self.i += 1
                continue
            if (val in stops and kind == "ch") or (kind == "word" and val.lower() in stops):
                return out
            node = self.operand()
            if node is not None:
                out.append(node)

    def operand(self) -> _Node | None:
        """One unit with its scripts and a following ``over``/``atop``."""
        node = self.unit()
        if node is None or node.kind in ("space", "rel", "op", "sep", "open", "slash"):
            return node
        node = self.scripts(node)
        while self.at_word("over", "atop"):
            self.take()
            den = self.unit()
            den = self.scripts(den) if den is not None else _Node("", "atom")
            node = _Node(f"{_wrap_frac(node.text)}/{_wrap_frac(den.text)}", "atom", True)
        return node

    def scripts(self, node: _Node) -> _Node:
        while True:
            tok = self.peek()
            if tok is None:
                return node
            if tok[1] in ("_", "^") or (tok[0] == "word" and tok[1].lower() in ("sub", "sup")):
                self.take()
                mark = "_" if tok[1] in ("_",) or tok[1].lower() == "sub" else "^"
                arg = self.unit()
                body = _compact(arg.text if arg is not None else "")
                text = f"{mark}{body}" if _SIMPLE.fullmatch(body) else f"{mark}{{{body}}}"
                node = _Node(node.text + text, node.kind, True)
                continue
            return node

    def group(self) -> str:
        """The rendered content of ``{ … }`` (or of the next single unit when no brace follows)."""
        tok = self.peek()
        if tok is not None and tok[1] == "{":
            self.take()
            inner = self.items(frozenset("}"))
            self.take()
            return _render(inner)
        node = self.unit()
        return node.text if node is not None else ""

    def unit(self) -> _Node | None:
        self.depth += 1
        try:
            if self.depth > _MAX_DEPTH:
                self.i = len(self.toks)
                return None
            return self._unit()
        finally:
            self.depth -= 1

    def _unit(self) -> _Node | None:
        tok = self.take()
        if tok is None:
            return None
        kind, val = tok
        if kind == "ch":
            return self._char(val)
        if kind == "num":
            return _Node(val, "atom")
        if kind == "str":
            return _Node(val.strip('"'), "atom")
        if kind == "hangul":
            return _Node(val, "atom")
        if kind == "multi":
            sym = MULTI_SYMS[val]
            return _Node(sym, "rel" if sym in REL_CHARS else ("op" if sym in OP_CHARS else "atom"))
        return self._word(val)

    def _char(self, val: str) -> _Node | None:
        if val == "{":
            inner = self.items(frozenset("}"))
            self.take()
            return _Node(_render(inner), "atom")
        if val in "`~":
            return _Node(" ", "space")
        if val in "#&":
            return _Node("; " if val == "#" else " ", "space")
        if val in "}":
            return None
        if val in "([":
            return _Node(val, "open")
        if val in ")]":
            return _Node(val, "close")
        if val == ",":
            return _Node(",", "sep")
        if val == "/":
            return _Node("/", "slash")
        if val in REL_CHARS:
            return _Node(val, "rel")
        if val in OP_CHARS:
            return _Node(val, "op")
        if val in "_^":
            return None
        return _Node(val, "atom")

    def _word(self, word: str) -> _Node | None:
        low = word.lower()
        if low in GREEK:
            if word[0].isupper() and low in GREEK_UPPER:
                return _Node(GREEK_UPPER[low], "atom")
            return _Node(GREEK[low], "atom")
        if low in FONT_SWITCHES:
            return None
        if low == "sqrt":
            return _Node(_root(self.group()), "atom")
        if low == "root":
            n = self.group()
            if self.at_word("of"):
                self.take()
            return _Node(f"√[{n}]({self.group()})", "atom")
        if low == "left":
            return self._left()
        if low == "right":  # unmatched: drop the word, keep its delimiter
            d = self.take()
            return _Node(_delim(d), "close") if d is not None else None
        if low in ACCENTS:
            body = self.group()
            if len(body) == 1:
                return _Node(body + ACCENTS[low], "atom")
            return _Node(f"{low}({body})", "atom")
        if low in MATRICES:
            return self._matrix(low)
        if low in BIG_OPS:
            return _Node(BIG_OPS[low], "bigop")
        if low in RELATIONS:
            return _Node(RELATIONS[low], "rel")
        if low in OPERATORS:
            return _Node(OPERATORS[low], "op")
        if low in SYMBOLS:
            return _Node(SYMBOLS[low], "atom")
        if low in FUNCTIONS:
            return _Node(word, "func")
        return _Node(word, "atom")

    def _left(self) -> _Node:
        opening = _delim(self.take())
        inner = self.items(frozenset({"right"}))
        closing = ""
        if self.at_word("right"):
            self.take()
            closing = _delim(self.take())
        return _Node(f"{opening}{_render(inner)}{closing}", "atom")

    def _matrix(self, name: str) -> _Node:
        tok = self.peek()
        if tok is None or tok[1] != "{":
            return _Node(name, "atom")
        self.take()
        rows: list[list[str]] = [[]]
        while True:
            cell = self.items(frozenset({"}", "#", "&"}))
            rows[-1].append(_render(cell))
            nxt = self.take()
            if nxt is None or nxt[1] == "}":
                break
            if nxt[1] == "#":
                rows.append([])
        lo, hi = MATRICES[name]
        sep = " " if name == "cases" else ", "
        body = "; ".join(sep.join(c for c in row if c).strip() for row in rows if any(row))
        return _Node(f"{lo}{body}{hi}", "atom")


def _delim(tok: tuple[str, str] | None) -> str:
    if tok is None:
        return ""
    val = tok[1]
    if val == ".":
        return ""
    low = val.lower()
    if low in SYMBOLS:
        return SYMBOLS[low]
    if low in ("vert", "dline"):
        return "|" if low == "vert" else "‖"
    return val if len(val) == 1 else ""


def _wrap_frac(text: str) -> str:
    text = text.strip()
    return text if _NUMBER.fullmatch(text) else f"({text})"


def _root(body: str) -> str:
    body = body.strip()
    if _NUMBER.fullmatch(body) or re.fullmatch(r"[A-Za-zα-ωΑ-Ω]", body):
        return f"√{body}"
    return f"√({body})"


def _compact(text: str) -> str:
    return re.sub(r"\s*([=<>≤≥≠≒≈→←↔+\-±×·,])\s*", r"\1", text).strip()


def _render(nodes: list[_Node]) -> str:
    out = ""
    prev: _Node | None = None
    for node in nodes:
        if node.kind == "space":
            if out and not out.endswith(" "):
                out += node.text if node.text.strip() else " "
            continue
        if node.kind == "rel":
            out = out.rstrip() + f" {node.text} "
        elif node.kind == "op":
            binary = prev is not None and prev.kind in ("atom", "close", "func", "bigop")
            out = out.rstrip() + f" {node.text} " if binary else out + node.text
        elif node.kind == "sep":
            out = out.rstrip() + node.text + " "
        elif node.kind in ("slash", "close"):
            out = out.rstrip() + node.text
        else:  # atom, func, bigop, open
            if prev is not None and out and not out.endswith(" ") and node.kind != "open":
                digits = prev.kind == "atom" and out[-1].isdigit() and node.text[:1].isdigit()
                if prev.scripted or prev.kind in ("func", "bigop") or digits:
                    out += " "
            out += node.text
        prev = node
    return re.sub(r" {2,}", " ", out).strip()


def linearize(script: str) -> str:
    """Readable, searchable linear text of one 한글 equation script (never raises on odd input)."""
    if not script or not script.strip():
        return ""
    reader = _Reader(script)
    nodes: list[_Node] = []
    while reader.peek() is not None:
        nodes.extend(reader.items(frozenset()))
        if reader.peek() is not None:  # a stray closing brace or "right"
            reader.take()
    return _render(nodes)
