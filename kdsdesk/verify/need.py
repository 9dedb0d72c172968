"""Question types by rules: single value, conditional value, requirement, definition — and what the question asks.

Rules first (the answer shape depends on them; the LLM only fills the shape):
- definition: "~이란", "~란 무엇", "정의", "무엇이라고 하나요", "뭐라고 부르나요", "어떤 의미", "~을 말하나요";
- value (numeric): "얼마", "몇", a unit asked for ("몇 mm", "몇 %", "몇 배"), "최대/최소/상한/하한 … 는?",
  "계수는", "값은";
- conditional: a value question that also states a condition ("~인 경우", "~일 때", "~(으)면", "~에서");
- regulation: anything else ("어떻게 해야", "무엇을 해야", "어떤 조치", "어떤 … 으로 설계").

``classify`` also returns the unit asked for (``"mm"``, ``"%"``, ``"배"``), the comparison the question states
(``le``: 이하/미만/넘지 않는, ``gt``: 초과/넘는/이상) and whether the question asks for the term (inverse
definition: "… 을 무엇이라고 하나요").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Literal

from kdsdesk import lexicon as lx
from kdsdesk.records import Need, QType

Comparison = Literal["", "le", "gt"]

UNITS = lx.UNITS


_TAIL_PAREN = re.compile(r"\s*\([^()]*\)\s*[?？]?$")


def _strip_tail(q: str) -> str:
    """The question without a trailing parenthetical remark ("… 단위중량 (연직하중 산정)")."""
    return _TAIL_PAREN.sub("", q).strip()


@dataclass(frozen=True, slots=True)
class QuestionInfo:
    """What the rules read from a question."""

    qtype: QType
    unit: str = ""  # the unit asked for, "" when none
    comparison: Comparison = ""
    asks_term: bool = False  # inverse definition: the question describes, the answer is the term


def unit_asked(question: str) -> str:
    q = unicodedata.normalize("NFC", question)
    m = lx.UNIT_ASKED.search(q) or lx.UNIT_PAREN_IN_QUESTION.search(q) or lx.UNIT_AT_QUESTION_END.search(q)
    if not m:
        return ""
    u = m.group(1)
    if u not in lx.SPELLED_UNITS and re.match(r"[가-힣]", u) and lx.unit_dimension(u) in ("count", "time", "year"):
        return u  # a counter or a Korean time unit as written ("몇 자리", "몇 개소", "몇 시간")
    return lx.canonical_unit(lx.SPELLED_UNITS.get(u, u))


def classify(question: str) -> QuestionInfo:
    """Type of a single-intent question and what it asks (see the module docstring)."""
    q = lx.spoken_asks(" ".join(question.split()))
    unit = unit_asked(q)
    comparison: Comparison = "le" if lx.ASKS_AT_MOST.search(q) else ("gt" if lx.ASKS_ABOVE.search(q) else "")
    if (lx.ASKS_DEFINITION.search(q) or lx.KIND_OF_ITSELF.search(q)) and not unit and not re.search(r"얼마|몇", q):
        return QuestionInfo("definition", asks_term=bool(lx.ASKS_NAME.search(q)))
    if lx.CASUAL_WHAT.search(q) and not unit:
        # a term with another name in parentheses ("롤값(MARV)") is a term, whatever it ends on
        named = lx.NAMED_TERM_ASKED.search(q) is not None
        term = term_asked(q)
        generic = bool(term) and (term.split()[-1] in lx.REQUEST_WORDS or term.split()[-1] in lx.GENERIC_WORDS)
        if named or not (generic or _ends_on_quantity(term)):  # "전기방식 원칙이 뭐야?" asks the rule
            return QuestionInfo("definition")
    if unit or lx.ASKS_VALUE.search(q) or (" " in q and lx.TELEGRAPHIC_VALUE.search(_strip_tail(q))):
        qtype: QType = "conditional" if lx.STATES_CONDITION.search(q + " ") else "numeric"
        return QuestionInfo(qtype, unit=unit, comparison=comparison)
    if lx.ASKS_HOW.search(q):
        return QuestionInfo("regulation", comparison=comparison)
    return QuestionInfo("regulation", comparison=comparison)


_UNIT_IN_VALUE = re.compile(rf"\d\s*({lx.UNIT_ALT})(?![A-Za-z])")


def asked_dimension(question: str) -> str:
    """The dimension of the quantity asked ("ratio", "speed", "stress", "force", "length", "temperature"), or ""."""
    nouns = [m.group(1) for m in lx.QUANTITY_HEAD.finditer(unicodedata.normalize("NFC", question))]
    if not nouns:
        return ""
    last = nouns[-1]
    if last.endswith(("율", "률")) and last not in lx.QUANTITY_DIMENSION:
        return "ratio"
    return lx.QUANTITY_DIMENSION.get(last, "")


def unit_dimension(unit: str) -> str:
    return lx.unit_dimension(unit)


def dimension_conflict(question: str, value: str, unit: str) -> bool:
    """True when the answer's unit cannot measure what the question asks (a speed given for a ratio, a unitless
    factor for a strength). Unknown units and unitless values (units often sit in table headers) never conflict,
    except for strengths, stresses and lengths, which are never unitless."""
    asked = asked_dimension(question)
    if not asked or unit_asked(question) or lx.MULTIPLIER_ASKED.search(question):
        return False  # a unit named in the question ("몇 %") governs; a multiplier of a formula has none
    if not unit.strip():
        m = _UNIT_IN_VALUE.search(value)
        unit = m.group(1) if m else ""
    dim = unit_dimension(unit)
    if not unit.strip():
        return asked in ("stress", "length") and bool(re.search(r"\d", value))
    if asked == "force" and dim == "stress":
        return False  # pressures (측압, 압력) are written in kPa/MPa too
    return bool(dim) and dim != asked


# -- the need: every slot a reading of the evidence must fill -------------------------------------------------------
_NOUNISH = frozenset({"NNG", "NNP", "NNB", "NR", "SL", "SN", "SH", "XSN", "XPN", "SW", "SSO", "SSC", "SP", "SO"})
_CONTENT_TAGS = ("NNG", "NNP", "NR", "XR", "SL", "SN", "SH", "VV", "VA", "MM")
_TELEGRAPH_SPLIT = re.compile(r"\s*[—–:―]\s*|\s-\s")


def _tokens(question: str) -> list[Any]:
    from kdsdesk.text.korean import get_kiwi

    return list(get_kiwi().tokenize(question))


def _words(q: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", q)]


def question_words(question: str, nouns_only: bool = False) -> tuple[str, ...]:
    """The question's content words as written (Kiwi cuts particles and endings), question words left out;
    ``nouns_only``: words whose content is nouns and symbols (no verb: "쌓아야", "두어야")."""
    q = lx.nfkc(question)
    toks = _tokens(q)
    out: list[str] = []
    for a, b in _words(q):
        parts = [
            t for t in toks
            if a <= t.start < b and str(t.tag).split("-")[0] in _CONTENT_TAGS
            and t.form not in lx.ASK_WORDS and t.form not in ("하", "되", "있", "말하", "부르", "나오", "정하")
        ]  # fmt: skip
        if not parts or (nouns_only and any(str(t.tag).startswith(("VV", "VA")) for t in parts)):
            continue
        lo = min(t.start for t in parts)
        hi = max(t.start + t.len for t in parts)
        w = q[lo:hi].strip("()[]")
        if len(w) >= 2 or re.fullmatch(r"[A-Za-zα-ωΑ-Ω]", w):
            out.append(w)
    return tuple(out)


def _noun_phrase_before(q: str, toks: list[Any], end: int) -> tuple[str, int]:
    """The noun phrase that ends at ``end`` (words made of noun-like morphemes, an optional ``의`` between
    them), and where it starts."""
    start = end
    words = [(a, min(b, end)) for a, b in _words(q) if a < end]
    for a, b in reversed(words):
        tags = [str(t.tag).split("-")[0] for t in toks if a <= t.start < b]
        forms = [t.form for t in toks if a <= t.start < b]
        if not tags:
            break
        core = list(zip(tags, forms, strict=True))
        if any(f in ("경우", "때", "시", "중", "등", "당") and t in ("NNG", "NNB") for t, f in core) and start != end:
            break
        if b < end or start == end:
            # a modifier word: nouns, optionally ending in 의 (JKG); the phrase's own last word: nouns only. A verb
            # nominalised inside a compound ("장기처짐계수": 처지/VV ㅁ/ETN) keeps the word a noun.
            if core[-1][0] == "JKG":
                core = core[:-1]
            if not core:
                break  # a particle written apart ("≤ ? 의 한계값"): no noun before it
            # a determiner glued to the next morpheme is a mis-split word ("세장비": 세/MM 장비/NNG)
            inner_ok = all(t in _NOUNISH or t in ("VV", "VA", "ETN", "XSV", "XSA", "MM", "JKS", "JX")
                           for t, _ in core[1:-1]) and all(
                t in _NOUNISH or t in ("VV", "VA", "ETN", "XSV", "XSA", "MM") for t, _ in core[-1:]
            ) and (
                core[0][0] in _NOUNISH or core[0][0] in ("VV", "VA", "XPN") or (core[0][0] == "MM" and len(core) > 1)
            )
            last_ok = bool(core) and core[-1][0] in (*_NOUNISH, "ETN")
            if not last_ok or not inner_ok or any(f in lx.ASK_WORDS for _, f in core):
                break
        start = a
    return q[start:end].strip(), start


def _asked_phrase(q: str, toks: list[Any], ask_at: int) -> str:
    """The noun phrase the asked word is about: "… 연속 시공 높이를 최대 몇 m" → "연속 시공 높이" (extreme and
    generic words and the particle between skipped)."""
    end = ask_at
    while True:
        while end > 0 and q[end - 1] == " ":
            end -= 1
        ws = q.rfind(" ", 0, end) + 1
        word = q[ws:end]
        if word and (word in lx.GENERIC_WORDS or any(word == w for w, _ in lx.EXTREME_WORDS)) and ws > 0:
            end = ws
            continue
        break
    parts = [t for t in toks if ws <= t.start < end]
    while parts and str(parts[-1].tag).startswith("J"):
        end = parts[-1].start
        parts = parts[:-1]
    if not parts:
        return ""
    phrase, _ = _noun_phrase_before(q, toks, end)
    return phrase


def _strip_generic(phrase: str) -> tuple[str, str]:
    """The phrase without trailing generic/extreme words ("순간격 상한" → "순간격", "max")."""
    extreme = ""
    words = phrase.split()
    if words and words[-1].endswith("의") and len(words[-1]) > 1:
        words[-1] = words[-1][:-1]
    while words:
        w = re.sub(r"[은는이가을를의]$", "", words[-1])
        ex = next((e for word, e in lx.EXTREME_WORDS if w == word or w == word + "값"), "")
        if ex or w in lx.GENERIC_WORDS:
            extreme = extreme or ex
            words.pop()
            if words and words[-1].endswith("의") and len(words[-1]) > 1:
                words[-1] = words[-1][:-1]  # "길이의 절대 최솟값" → "길이"
            continue
        break
    return " ".join(words), extreme


def _head(subject: str) -> str:
    """The head noun of a subject phrase: its last quantity noun (longest match), else its last Hangul word."""
    s = re.sub(r"\([^()]*\)", " ", subject)
    for w in reversed(s.split()):
        core = re.sub(r"의$", "", w)
        if core in lx.GENERIC_WORDS:
            continue
        core = re.sub(r"^(최소|최대)(?=[가-힣]{2,})", "", core)  # "최소두께": the bound asked, glued to 두께
        m = re.search(rf"({lx.QUANTITY_ALT})$", core)
        if m:
            return core if len(core) <= 6 else m.group(1)
        if re.fullmatch(r"[가-힣]{2,}", core):
            return core
        if re.fullmatch(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9_,/′']*", core):
            continue  # a symbol after its name ("항복강도 Fy"): the name is the head
    return ""


def question_cases(question: str) -> tuple[str, ...]:
    """The cases a question states: phrases before a case marker (경우, 때, 시, 면, 중에는, 에서는), a setting it
    opens with ("얕은기초에서 …"), and the part after a dash in a telegraphic question ("… — 시공 중에는 …")."""
    from kdsdesk.text.facts import case_phrases

    q = lx.nfkc(question)
    out = [c for c in case_phrases(q) if not all(w in lx.QUESTION_WORDS or w in lx.CASE_STOP for w in c.split())]
    # "건축재료 중 목재를 쓰면": the case is the one of the group it names (the group is the setting)
    out = [_member_case(c) for c in out]
    scope = scope_of(q)
    if scope and not any(scope in c or c in scope for c in out):
        out.insert(0, scope)
    # an aside in parentheses that narrows what is asked ("본문(보로 지지되는 슬래브)"), not an exclusion, a
    # reference to a table or a list of what is asked ("(최소 피복두께, ㎝)")
    for m in lx.HANGUL_ASIDE.finditer(q):
        aside = m.group(0).strip(" ()")
        if lx.ASIDE_CASE.fullmatch(aside) and not lx.NEGATION.search(aside):
            out.append(aside)
    return tuple(dict.fromkeys(c.strip() for c in out if c.strip()))


def _member_case(case: str) -> str:
    """The member a case names of a group ("건축재료 중 목재를" → "목재를"); the case itself when it names none."""
    member = lx.GROUP_MEMBER_SPLIT.split(case)[-1].strip()
    return member if re.search(r"[가-힣A-Za-z]{2}", member) else case


def scope_of(question: str) -> str:
    """The setting a question opens with ("얕은기초에서 …", "소규모건축 콘크리트구조에서 …"), "" when none: a
    phrase of nouns only — one with a verb or a marked subject ("발주자가 특등급으로 지정한 케이블교량에서") is a
    case, not a scope."""
    m = lx.SCOPE_AT_START.match(lx.nfkc(question))
    if not m:
        return ""
    phrase = m.group(1).strip()
    if any(re.search(r"(이|가|을|를|은|는|한|된|인|는|할|으로|로)$", w) for w in phrase.split()[:-1]):
        return ""
    return phrase


def term_asked(question: str) -> str:
    """The term a definition question names: "'소규모댐'의 정의는?", "깊은 보란?", "기호 a(전단경간)는 무엇을
    뜻하나요?" → "소규모댐", "깊은 보", "a"; a scope opening the question ("… 기준에서") is left out."""
    q = lx.nfkc(question)
    quoted = re.search(r"['‘’\"“”]([^'‘’\"“”]{1,40})['‘’\"“”]", q)
    if quoted:
        return quoted.group(1).strip()
    q = re.sub(r"^\s*[^,?]{2,40}?(?:에서는|에서|의\s*경우)\s+(?:말하는\s+|이르는\s+)?", "", q)
    q = re.split(r"\s[—–-]\s", q)[-1]  # "조경 휴게시설 용어 — 퍼걸러의 정의?": the setting before the dash
    for pattern in lx.TERM_PATTERNS:
        m = re.match(pattern, q + " ")
        if m:
            term = m.group(1).strip()
            sym = re.match(r"^기호\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_,′']*)", term)
            if sym:
                return sym.group(1)
            term = re.sub(r"^(?:에서\s*)?(?:말하는|이르는|정의된|규정된|정의하는)\s+", "", term)
            term = re.split(r"\s중\s+", term)[-1]  # "케이블교량 연결요소 중 버퍼": one of a group is asked
            term = re.sub(r"^(용어|기호)\s+", "", term)
            term = lx.USE_BEFORE_TERM.split(term)[-1]  # "…에 쓰는 X": the term after the verb of use
            # another name in parentheses ("택 코우트(Tack Coat)"): the term is the one written first
            return lx.strip_alias(term)
    return ""


def excluded_terms(question: str) -> tuple[str, ...]:
    """What a question rules out: "팽창성이 아닌 그라우트" → 팽창성, "강바닥판을 제외한" → 강바닥판."""
    out = []
    for m in lx.EXCLUDED_ASKED.finditer(lx.nfkc(question)):
        w = (m.group(1) or m.group(2) or "").strip("·")
        if w and w not in lx.QUESTION_WORDS:
            out.append(w)
    return tuple(out)


_SYMBOL_WORD = re.compile(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9_,′'{}]*")


def _ends_on_quantity(phrase: str) -> bool:
    """The phrase's last word (a symbol written after its name left out: "저감계수 β") is a quantity noun."""
    words = _strip_generic(phrase)[0].split()
    while len(words) > 1 and _SYMBOL_WORD.fullmatch(words[-1]):
        words.pop()
    return bool(words) and bool(lx.QUANTITY_END.search(words[-1]))


def _quantity_asked(subject: str, q: str) -> bool:
    """A question without a question word whose subject ends on a quantity ("… 환기량 기준은?", "… 저감계수 β —
    …이면?"), or is a symbol alone ("식 … 에서 a는?": a symbol names a quantity)."""
    if not subject or lx.REQUIREMENT_ASKED.search(q):
        return False
    return _ends_on_quantity(subject) or bool(_SYMBOL_WORD.fullmatch(subject.strip()))


def read_need(question: str) -> Need:
    """Every slot of what ``question`` asks (see :class:`kdsdesk.records.Need`)."""
    q = lx.spoken_asks(" ".join(lx.nfkc(question).split()))
    info = classify(q)
    # words in a parenthesis with Hangul are an aside of the question ("표면(받침 거치면 제외)의 경사"): the
    # subject is read without them (their cases, units and exclusions from the whole question)
    qs = lx.HANGUL_ASIDE.sub("", q)
    toks = _tokens(qs)
    body = _TAIL_PAREN.sub("", qs).rstrip(" ?？.")
    # the asked part: the first question word, else the end of a telegraphic question
    ask_tags = ("NNG", "NP", "MM", "NR", "VA", "NNB")
    ask = next((t for t in toks if t.form in lx.ASK_WORDS and str(t.tag).split("-")[0] in ask_tags), None)
    ask_at = ask.start if ask is not None else len(body)
    cases = question_cases(q)
    asked_cases = [c for c in cases if re.search(r"얼마|몇", c)]
    cases = tuple(c for c in cases if c not in asked_cases)
    spans = [(qs.find(c), qs.find(c) + len(c)) for c in cases if qs.find(c) >= 0]

    def in_case(pos: int) -> bool:
        return any(a <= pos < b for a, b in spans)

    topic = ""
    subject_like = ""
    for t in toks:
        tag = str(t.tag)
        if t.start >= ask_at:
            break
        glued = re.match(r"[가-힣]", qs[t.start + len(t.form) : t.start + len(t.form) + 1] or " ")
        if glued:
            continue  # a particle inside a word is a mis-split noun ("설계가속도": 설계/가/속도)
        if (tag == "JX" and t.form in ("은", "는")) or (tag == "JKS" and t.form in ("이", "가")):
            phrase, start = _noun_phrase_before(qs, toks, t.start)
            if not phrase or re.search(r"(경우|때|시)$", phrase) or in_case(start):
                continue
            if tag == "JX":
                topic = phrase
            else:
                subject_like = phrase
    topic = topic or subject_like
    asked_np = _asked_phrase(qs, toks, ask_at) if ask is not None else ""
    at = qs.rfind(asked_np, 0, ask_at) if asked_np else -1
    # "설계가속도는 일반 산정값보다 몇 % 크게": the base compared with, not the subject — unless both are one
    # quantity ("핀구멍의 직경은 핀의 직경보다 몇 mm"): then the value is written right after the base
    base = at >= 0 and bool(lx.RELATIVE_BASE_BETWEEN.match(qs[at + len(asked_np) : ask_at]))
    if topic and base and _head(_strip_generic(asked_np)[0]) != _head(_strip_generic(topic)[0]):
        asked_np = ""
    if asked_np and lx.QUANTITY_END.search(_strip_generic(asked_np)[0]) and asked_np != topic:
        if topic and not lx.QUANTITY_END.search(_strip_generic(topic)[0]):
            cases = (*cases, topic)  # "현장타설 격자블록은 연속 시공 높이를 최대 몇 m": the topic is the case
        topic = asked_np
    if not topic or not _head(topic):
        # no topic: the noun phrase right before the asked word (skipping "X의 몇 배"), or ending the question
        end = ask_at
        while end > 0 and qs[end - 1] == " ":
            end -= 1
        phrase, start = _noun_phrase_before(qs, toks, end)
        if phrase.endswith("의") or (phrase and in_case(start)):
            phrase = ""
        parts = _TELEGRAPH_SPLIT.split(body)
        if (not phrase or not _ends_on_quantity(phrase)) and len(parts) > 1:
            head_part = parts[0].strip()
            ph, _ = _noun_phrase_before(qs, toks, qs.find(head_part) + len(head_part))
            if _ends_on_quantity(ph):
                phrase = ph
        topic = topic if topic and not phrase else phrase or topic
    if info.qtype == "definition" and not info.asks_term:
        topic = term_asked(q) or topic
    subject, extreme = _strip_generic(topic)
    if not extreme:
        aside = re.sub(r"\([^()]*\)", " ", q)  # words in parentheses are an aside ("(최소 피복두께, ㎝)")
        extreme = next((e for w, e in lx.EXTREME_WORDS if re.search(rf"{w}(?![가-힣]*\s*(이면|인\s*경우))", aside)), "")
        if extreme and not re.search(r"(최소|최대|하한|상한|최솟|최댓|최저|최고|한도)", aside):
            extreme = ""  # 허용/제한 alone do not say which end
    head = _head(subject) or _head(topic)
    kind: str
    if info.qtype == "definition":
        kind = "term" if info.asks_term else "definition"
    elif lx.FORMULA_ASKED.search(q) and not info.unit:
        kind = "formula"
    elif info.qtype in ("numeric", "conditional") or _quantity_asked(subject, q):
        kind = "value"
    else:
        kind = "requirement"
    qtype: QType = info.qtype
    if kind == "value" and qtype not in ("numeric", "conditional"):
        qtype = "numeric"
    if kind == "term":
        cases = ()
    if cases and qtype == "numeric" and kind == "value":
        qtype = "conditional"
    bound_m = lx.BOUND_ASKED.search(q)
    bound = lx.bound_of_word(bound_m.group(2)) if bound_m else ""
    sign = lx.SIGN_ASKED.search(q)
    if not bound and sign:
        bound = lx.SIGN_BOUND.get(sign.group(1), "")  # "조건식 … ≤ ?": the limit on the right of the sign
    unit = info.unit
    # the dimension of what is asked: of the subject's head (a unit or quantity named in a condition — "설계속도
    # 80 km/h 본선의 … 종단경사" — is not asked), of the whole question only when it names no subject
    dim = (
        lx.unit_dimension(unit)
        if unit
        else (
            lx.head_dimension(head)
            or asked_dimension(subject)
            or ("" if subject else asked_dimension(body))
        )
    )
    if lx.RELATIVE_ASKED.search(q) and lx.unit_dimension(unit) in ("", "ratio"):
        dim = "ratio"  # "… 작은 값의 얼마 이상", "지름의 몇 배": a share or multiple of something
    return Need(
        question=question,
        qtype=qtype,
        kind=kind,  # type: ignore[arg-type]
        subject=subject,
        head=head,
        conditions=cases,
        scope=scope_of(q) if scope_of(q) in cases else "",
        excluded=excluded_terms(q),
        bound=bound,
        extreme=extreme,
        ordinal=lx.ordinal_in(q),
        unit=unit,
        dimension=dim,
        threshold=bool(lx.THRESHOLD_ASKED.search(q) or asked_cases),
        permission=kind == "requirement" and bool(lx.PERMISSION_ASKED.search(q)),
        terms=question_words(q),
        nouns=question_words(q, nouns_only=True),
    )
