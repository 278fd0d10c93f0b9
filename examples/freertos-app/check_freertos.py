#!/usr/bin/env python3
"""check_freertos.py -- compare a decoded trace of the FreeRTOS example
application (examples/freertos-app) with what the application counted
itself and reported at the end (records APP_TASK, APP_OBJ, APP_RUN,
APP_SETS).

    check_freertos.py DECODED.jsonl [--states] [--lossy] [--stats STATS.txt]
                      [--chrome TRACE.json] [--timer-wait receive|delayed]
                      [--api yes|no] [--pend-name NAME]

DECODED.jsonl is `sonde decode --format jsonl` of the capture (Sonde's own
protocol or Tonbandgeraet's: the decoders map both onto the same events).

Checked, from the decoded events alone:
  * per task: switches in; with --states also the state each switch-out
    left it in (ready / blocked / suspended / deleted), against the
    kernel's own eTaskGetState() at the switch;
  * per queue, semaphore and mutex: sends (gives), receives (takes) and
    peeks, succeeded and failed, and the fill level at the end;
  * priority inheritance and disinheritance, notifications by action
    (increment; set value, with the sum of the values), timer starts and
    expiries, resumptions, event group sets and waits (a wait the kernel
    flags timed out may still have found its bits);
  * a mutex's give inside its creation is one "create", not a give;
  * inheritance is visible: each inherit raises the holder to the priority
    of the running task, which then blocks on the mutex;
  * the target's own statistics: records and bytes written before the
    report equal the frames and bytes decoded (--lossy: only the loss
    totals, which must equal the DROPS totals the decoder saw);
  * names on request: the report begins with what the host's INFO command
    gets (TARGET_INFO and the dictionary callback), which must announce
    every task and object reported, with its kind and its name.
  * idle: every switch to idle names the idle task (task, task_name);
    with --stats (`sonde stats` of the capture), IDLE's runs in the Tasks
    table equal its switches in the RTOS table and the decoded ones, its
    cpu% equals the Cores line's idle%, and each object's puts, gets and
    peeks equal the application's;
  * with --chrome (the Chrome JSON export), each mutex's holder track ends
    up named "<mutex> holder", no counter is "<Kind> #id", the idle
    task's thread has a Running slice per switch to it, and there is an
    instant per queue-set signal, deferred call and failed creation;
  * with --timer-wait, what the timer service task waits in: "receive"
    (from its command queue: kernels with the V11 API hooks) or
    "delayed" (V10);
  * the queue set (APP_SETS): it is a "queue set", each member's signal
    is an operation "signal" naming the member, xQueueSelectFromSet's
    results are its receives (ok / timed out), and the task that selects
    waits on the set; deferred calls (PEND_CALL) by origin (task, ISR)
    and result, each naming the application's function (its address; its
    name with --pend-name, when decoded with the ELF); the creations that
    failed, by kind; a task deleted by another is decoded deleted once;
  * with --api yes (kernels with the V11 API hooks; the example turns
    them on), the API spans of the functions only the application calls
    equal its own calls (vTaskDelay, xQueueSemaphoreTake and its pdPASS
    returns, xQueuePeek, ulTaskGenericNotifyTake, xEventGroupWaitBits and
    the returns with the bit, xEventGroupSetBits, xQueueSelectFromSet,
    xTimerPendFunctionCall(FromISR) and their pdPASS returns), and so
    does `sonde stats`' API table, and the two members are decoded added
    to the set; --api no: no API record, no member added (V10's kernel
    says neither).
  * the heap (APP_HEAP, APP_THEAP): allocations, failed ones and frees, in
    all and by the task that ran (none before the scheduler), and the
    bytes allocated, equal the application's; one allocation failed on
    purpose; with --stats, the heap table agrees and the blocks still
    allocated at the end are as many as the application's allocations less
    its frees, the block it leaked on purpose among them, with its size
    and the task that allocated it; with --chrome, a counter "heap";
  * stack high-water marks: each task's last free stack decoded equals
    what the application asks of the kernel at the end
    (uxTaskGetStackHighWaterMark), for the task that reports at least as
    much (it ran since); with --stats, the "stack min" column agrees; with
    --chrome, a counter "<task> stack free" for each;
  * tickless idle (APP_LOWPOWER): the decoded low-power begins, all on the
    idle task, and ends equal the application's count of sleeps (with
    --tickless at least one); with --stats, the "low power:" line; with
    --chrome, a "Low power" slice per sleep.
Exit status 0 when everything matches; the mismatches are printed.
"""
import argparse
import collections
import json
import re
import sys

READY, BLOCKED, SUSPENDED, DELETED = range(4)


def reason_class(reason_name):
    return {"preempted": READY, "suspended": SUSPENDED, "deleted": DELETED}.get(reason_name, BLOCKED)


def args_of(ev):
    """An event's arguments: named ones by name, all in order."""
    named = {}
    for a in ev.get("args", []):
        if "name" in a:
            named[a["name"]] = a["value"]
    return named, [a["value"] for a in ev.get("args", [])]


class Trace:
    def __init__(self, path):
        self.events = []
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    self.events.append(json.loads(line))
        self.report = {"APP_TASK": [], "APP_OBJ": [], "APP_RUN": [], "APP_SETS": [], "APP_HEAP": [],
                       "APP_THEAP": [], "APP_LOWPOWER": []}
        self.report_at = None   # the first report record
        self.run_at = None      # APP_RUN
        for i, ev in enumerate(self.events):
            if ev.get("kind") == "record" and ev.get("record") in self.report:
                if self.report_at is None:
                    self.report_at = i
                if ev["record"] == "APP_RUN":
                    self.run_at = i
                self.report[ev["record"]].append(ev)


def count(trace):
    """Everything the checks need, from the events before the report."""
    c = {
        "in": collections.Counter(),
        "out": collections.defaultdict(lambda: [0, 0, 0, 0]),
        "ops": collections.Counter(),   # (object, op, failed) -> n
        "level": {},
        "kind": {},
        "prio": {},
        "run": collections.Counter(),
        "inherit_bad": [],
        "heap": collections.defaultdict(lambda: [0, 0, 0]),   # task (0: none) -> allocs, failed, frees
        "heap_bytes": 0,
        "heap_sizes": {},   # address -> size, of the blocks allocated and not freed
        "stack": {},        # task -> the last free stack decoded
        "low_power": [0, 0, 0],   # begins, ends, begins or ends not on the idle task
    }
    idle = None
    running = None
    started = False
    pending_inherit = None   # (task that must now block, mutex holder)
    for ev in trace.events[:trace.report_at]:
        k = ev["kind"]
        named, _ = args_of(ev)
        if k == "object":
            c["kind"][ev["object"]] = ev.get("type_name")
            if ev.get("type_name") == "idle task":
                idle = ev["object"]
        elif k == "task_create":
            c["prio"][ev["task"]] = ev["prio"]
        elif k == "task_in":
            if running == idle and idle is not None and started:
                c["out"][idle][READY] += 1
            c["in"][ev["task"]] += 1
            running = ev["task"]
            started = True
        elif k == "idle":
            c["in"][idle] += 1
            running = idle
            started = True
        elif k == "task_out":
            c["out"][ev["task"]][reason_class(ev.get("reason_name"))] += 1
            if pending_inherit and ev["task"] == pending_inherit[0]:
                if ev.get("reason_name") != "waiting to take":
                    c["inherit_bad"].append("task %s inherited to, then left %s, not waiting for the mutex"
                                            % (ev["task"], ev.get("reason_name")))
                pending_inherit = None
            if ev["task"] == running:
                running = None
        elif k == "task_prio":
            cause = ev.get("cause_name")
            c["run"][cause] += 1
            if cause == "priority inherit":
                want = c["prio"].get(running)
                if want != ev["prio"]:
                    c["inherit_bad"].append("inherit at ts %s: holder %s raised to %s, the running task %s has %s"
                                            % (ev.get("ts"), ev["task"], ev["prio"], running, want))
                pending_inherit = (running, ev["task"])
        elif k == "obj_op" and ev.get("object_name") == "heap" and named.get("op") in ("malloc", "free"):
            h = c["heap"][running if running is not None else 0]
            if named["op"] == "free":
                h[2] += 1
                c["heap_sizes"].pop(addr_of(named.get("address")), None)
            elif named.get("failed"):
                h[1] += 1
            else:
                h[0] += 1
                c["heap_bytes"] += named.get("size", 0)
                c["heap_sizes"][addr_of(named.get("address"))] = named.get("size", 0)
        elif k == "obj_op":
            # every operation counts, those before the scheduler started
            # too: a mutex's give inside its creation is "create"
            op = named.get("op")
            failed = bool(named.get("failed"))
            if op == "stack free":
                c["stack"][ev["object"]] = ev.get("value")
            elif op in ("low power begin", "low power end"):
                c["low_power"][op == "low power end"] += 1
                if ev["object"] != idle:
                    c["low_power"][2] += 1
            c["ops"][(ev["object"], op, failed)] += 1
            if op in ("notify take", "timer expired", "resume", "set bits", "wait bits", "timer start",
                      "notify set value") and not failed:
                c["run"][op] += 1
            if op == "notify increment" and not failed:   # xTaskNotifyGive()
                c["run"]["notify"] += 1
            if op == "notify set value" and not failed:
                c["run"]["notify set value sum"] += ev.get("value", 0)
            if op == "wait bits" and failed:
                c["run"]["wait bits timed out"] += 1
        if k == "obj_op" and "value" in ev and named.get("op") in (
                "send", "give", "receive", "take", "peek", "reset"):
            c["level"][ev["object"]] = ev["value"]
    c["idle"] = idle
    c["running"] = running   # the task that reports
    return c


def check_idle(t, c):
    """Every switch to idle names the idle task, as a switch to a task does."""
    bad = []
    idles = [ev for ev in t.events[:t.report_at] if ev["kind"] == "idle"]
    unnamed = [ev for ev in idles if ev.get("task") != c["idle"] or not ev.get("task_name")]
    if not idles or unnamed:
        bad.append("idle: %d switches to idle, %d without the idle task's id and name" % (len(idles), len(unnamed)))
    return bad


def stats_tables(path):
    """The rows of `sonde stats`' tables, by the table's first word."""
    tables, cur = {}, None
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                cur = None
            elif cur is None and line[0].isupper():
                cur = tables.setdefault(" ".join(w[:2]).rstrip(":"), [])
            elif cur is not None:
                cur.append(w)
    return tables


def check_stats(path, t, c, names):
    bad = []
    tabs = stats_tables(path)
    tasks = {r[0]: r for r in tabs.get("Tasks: CPU", [])}
    rtos = {r[0]: r for r in tabs.get("RTOS tasks,", [])}
    cores = tabs.get("Cores [us]", tabs.get("Cores [t]", []))
    objs = {r[0]: r for r in tabs.get("RTOS objects,", [])}
    idle = names.get(c["idle"])
    if idle not in tasks or idle not in rtos or len(cores) < 2:
        return ["stats: no %s row in the Tasks or RTOS tables, or no Cores line" % idle]
    runs, cpu_pct, switches = int(tasks[idle][1]), tasks[idle][3], int(rtos[idle][5])
    idle_pct = cores[1][4]
    if not (runs == switches == c["in"][c["idle"]]):
        bad.append("stats: %s runs %d (Tasks), switches %d (RTOS), decoded %d" % (idle, runs, switches,
                                                                                 c["in"][c["idle"]]))
    if cpu_pct != idle_pct:
        bad.append("stats: %s cpu%% %s (Tasks), idle%% %s (Cores)" % (idle, cpu_pct, idle_pct))
    if t.report["APP_HEAP"]:
        bad.extend(check_heap_stats(tabs, t, c, names))
    for ev in t.report["APP_OBJ"]:
        _, a = args_of(ev)
        nm, counts = names.get(a[0]), a[1:7]
        r = objs.get(nm)
        got = [int(x) for col in (-11, -10, -9) for x in r[col].split("/")] if r else None  # kinds have spaces
        if got != counts:
            bad.append("stats: %s put, get, peek %s, the application's %s" % (nm, got, counts))
    print("stats: %s runs %d, cpu%% %s, Cores idle%% %s" % (idle, runs, cpu_pct, idle_pct))
    return bad


def check_chrome(path, t, c, names):
    with open(path) as f:
        d = json.load(f)
    evs = d["traceEvents"] if isinstance(d, dict) else d
    final = {}
    for e in evs:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            final[(e.get("pid"), e.get("tid"))] = e["args"]["name"]
    want = ["%s holder" % names.get(args_of(ev)[1][0]) for ev in t.report["APP_OBJ"]
            if c["kind"].get(args_of(ev)[1][0]) in ("mutex", "recursive mutex")]
    have = set(final.values())
    bad = ["chrome: no track %r (tracks: %s)" % (w, sorted(n for n in have if "holder" in n))
           for w in want if w not in have]
    # every object the application names is named before its first
    # counter sample: no counter series "<Kind> #id" besides
    unnamed = sorted({e["name"] for e in evs if e.get("ph") == "C" and re.search(r"#\d+$", e.get("name", ""))})
    if unnamed:
        bad.append("chrome: counters without their object's name: %s" % unnamed)
    # the idle task is drawn as a task: a Running slice on its thread per switch to it
    idle = names.get(c["idle"])
    runs = sum(1 for e in evs if e.get("ph") in ("B", "X") and e.get("name") == "Running"
               and final.get((e.get("pid"), e.get("tid"))) == idle)
    if runs != c["in"][c["idle"]]:
        bad.append("chrome: %d Running slices on thread %s, %d switches to it" % (runs, idle, c["in"][c["idle"]]))
    counters = {e["name"] for e in evs if e.get("ph") == "C"}
    want = (["heap"] if t.report["APP_HEAP"] else []) + ["%s stack free" % names.get(i) for i in c["stack"]]
    missing = [w for w in want if w not in counters]
    if missing:
        bad.append("chrome: no counter %s" % missing)
    print("chrome: holder tracks %s, %s runs %d" % (sorted(n for n in have if "holder" in n), idle, runs))
    return bad


def check_timer_wait(t, c, names, how):
    want = "waiting to receive" if how == "receive" else "delayed"
    tmr = [i for i, k in c["kind"].items() if k == "timer service task"]
    outs = [ev for ev in t.events[:t.report_at] if ev["kind"] == "task_out" and ev["task"] in tmr]
    badly = [ev for ev in outs if ev.get("reason_name") != want or
             (how == "receive" and names.get(args_of(ev)[0].get("waits_on")) != "TmrQ")]
    print("timer task: %d waits, %d not %s" % (len(outs), len(badly), want))
    return ["timer task: %d of %d switch-outs not %s%s" % (len(badly), len(outs), want,
                                                           " its command queue" if how == "receive" else "")
            ] if not outs or badly else []


SETS_FIELDS = ["signals", "select ok", "select timeout", "set_q receives", "set_sem takes", "set_sem takes ok",
               "pend ok", "pend failed", "pend isr ok", "pend isr failed", "pend runs", "failed queue",
               "failed stream buffer", "delays", "deleted other"]


def check_sets(t, c, names, api, pend_name):
    """The queue set, deferred calls, failed creations, deleting another
    task and (api) the API spans against APP_SETS and the other counts."""
    if len(t.report["APP_SETS"]) != 1:
        return ["no APP_SETS record in the report"]
    _, a = args_of(t.report["APP_SETS"][0])
    qset, pend_fn, want = a[0], a[1], dict(zip(SETS_FIELDS, a[2:]))
    ids = {v: k for k, v in names.items()}
    evs = t.events[:t.report_at]
    bad = []
    if c["kind"].get(qset) != "queue set":
        bad.append("qset: decoded kind %s, not queue set" % c["kind"].get(qset))
    signals = [ev for ev in evs if ev["kind"] == "obj_op" and ev["object"] == qset and
               args_of(ev)[0].get("op") == "signal"]
    members = collections.Counter(names.get(args_of(ev)[0].get("member")) for ev in signals)
    if len(signals) != want["signals"] or set(members) - {"set_q", "set_sem"}:
        bad.append("qset: %d signals, decoded %d (members %s)" % (want["signals"], len(signals), dict(members)))
    got = (c["ops"][(qset, "receive", False)], c["ops"][(qset, "receive", True)])
    if got != (want["select ok"], want["select timeout"]):
        bad.append("qset: selects ok/timed out %d/%d, decoded receives %s" % (want["select ok"],
                                                                            want["select timeout"], got))
    waits = [ev for ev in evs if ev["kind"] == "task_out" and ev["task"] == ids.get("setwait") and
             args_of(ev)[0].get("waits_on") == qset and ev.get("reason_name") == "waiting to receive"]
    if not waits:
        bad.append("setwait never decoded waiting to receive from qset")
    pends = collections.Counter((bool(args_of(ev)[0].get("isr")), bool(args_of(ev)[0].get("failed")))
                                for ev in evs if ev.get("record") == "PEND_CALL")
    want_p = {(False, False): want["pend ok"], (False, True): want["pend failed"],
              (True, False): want["pend isr ok"], (True, True): want["pend isr failed"]}
    if any(pends[k] != v for k, v in want_p.items()) or sum(pends.values()) != sum(want_p.values()):
        bad.append("deferred calls (isr, failed) %s, decoded %s" % (want_p, dict(pends)))
    fns = [[x for x in ev["args"] if x.get("name") == "function"][0] for ev in evs if ev.get("record") == "PEND_CALL"]
    if any(f["value"] != pend_fn for f in fns):
        bad.append("deferred calls: a function other than the application's %#x" % pend_fn)
    if pend_name and any(f.get("resolved") != pend_name for f in fns):
        bad.append("deferred calls: not all named %s: %s" % (pend_name, {f.get("resolved") for f in fns}))
    failed = collections.Counter(ev.get("type_name") for ev in evs if ev["kind"] == "object" and
                                 args_of(ev)[0].get("op") == "create failed")
    if (failed["queue"], failed["stream buffer"]) != (want["failed queue"], want["failed stream buffer"]) \
            or sum(failed.values()) != want["failed queue"] + want["failed stream buffer"]:
        bad.append("failed creations: queue %d, stream buffer %d; decoded %s" % (want["failed queue"],
                                                                                 want["failed stream buffer"],
                                                                                 dict(failed)))
    victim = ids.get("victim")
    deleted = c["out"][victim][DELETED] if victim is not None else 0
    if deleted != want["deleted other"]:
        bad.append("victim: deleted by another task %d times, decoded %d" % (want["deleted other"], deleted))
    print("sets: " + ", ".join("%s %d" % (k, want[k]) for k in SETS_FIELDS) + "; deferred function %#x" % pend_fn)
    if api is None:
        return bad

    # API spans of the functions only the application calls
    calls, rets = collections.Counter(), collections.Counter()
    for ev in evs:
        if ev.get("record") != "API":
            continue
        fn = ev.get("func_name")
        if ev["kind"] == "func_enter":
            calls[fn] += 1
        else:
            r = args_of(ev)[0].get("ret")
            if r is not None:
                rets[(fn, r)] += 1
                if fn == "xEventGroupWaitBits" and r & 1:
                    rets[(fn, "bit")] += 1
    # members added to the set: V11's hooks say so (the set, ok), V10 has none
    adds = collections.Counter((names.get(ev["object"]), names.get(args_of(ev)[0].get("set")),
                                bool(args_of(ev)[0].get("failed")))
                               for ev in evs if ev["kind"] == "obj_op" and args_of(ev)[0].get("op") == "add to set")
    want_adds = {("set_q", "qset", False): 1, ("set_sem", "qset", False): 1} if api == "yes" else {}
    if dict(adds) != want_adds:
        bad.append("members added to the set: decoded %s, expected %s" % (dict(adds), want_adds))
    if api == "no":
        return bad + (["--api no, but %d API spans decoded" % sum(calls.values())] if calls else [])
    objs = {args_of(ev)[1][0]: args_of(ev)[1][1:7] for ev in t.report["APP_OBJ"]}
    sem, bus, q = objs[ids["tick_sem"]], objs[ids["bus"]], objs[ids["work_q"]]
    run = dict(zip(["notify take", "ev set", "ev ok", "ev timeout"], [args_of(t.report["APP_RUN"][0])[1][i]
                                                                       for i in (7, 10, 11, 12)]))
    expect = {
        "vTaskDelay": want["delays"],
        "xQueueSemaphoreTake": sem[2] + sem[3] + bus[2] + bus[3] + want["set_sem takes"],
        ("xQueueSemaphoreTake", 1): sem[2] + bus[2] + want["set_sem takes ok"],
        "xQueuePeek": q[4] + q[5],
        "ulTaskGenericNotifyTake": run["notify take"],
        "xEventGroupWaitBits": run["ev ok"] + run["ev timeout"],
        ("xEventGroupWaitBits", "bit"): run["ev ok"],
        "xEventGroupSetBits": run["ev set"],
        "xQueueSelectFromSet": want["select ok"] + want["select timeout"],
        "xTimerPendFunctionCall": want["pend ok"] + want["pend failed"],
        ("xTimerPendFunctionCall", 1): want["pend ok"],
        "xTimerPendFunctionCallFromISR": want["pend isr ok"] + want["pend isr failed"],
        ("xTimerPendFunctionCallFromISR", 1): want["pend isr ok"],
    }
    for k, v in expect.items():
        got = rets[k] if isinstance(k, tuple) else calls[k]
        if got != v:
            bad.append("API %s: the application's %d, decoded %d" % (k, v, got))
    print("api: %d spans of %d functions; %s" % (sum(calls.values()), len(calls),
                                                 ", ".join("%s %d" % (k, calls[k]) for k in expect
                                                           if isinstance(k, str))))
    c["api_calls"] = calls
    return bad


def check_chrome_sets(path, t, names):
    """The Chrome JSON export: an instant per queue-set signal, deferred
    call and failed creation, as many as the application's."""
    if len(t.report["APP_SETS"]) != 1:
        return []
    with open(path) as f:
        d = json.load(f)
    evs = d["traceEvents"] if isinstance(d, dict) else d
    inst = collections.Counter(e.get("name") for e in evs if e.get("ph") in ("i", "I"))
    _, a = args_of(t.report["APP_SETS"][0])
    want = dict(zip(SETS_FIELDS, a[2:]))
    expect = {"signal %s" % names.get(a[0]): want["signals"],
              "PEND_CALL": want["pend ok"] + want["pend failed"] + want["pend isr ok"] + want["pend isr failed"],
              "create failed queue": want["failed queue"],
              "create failed stream buffer": want["failed stream buffer"]}
    return ["chrome: %d instants %r, the application's %d" % (inst[k], k, v) for k, v in expect.items()
            if inst[k] != v]


def check_stats_sets(path, c):
    """`sonde stats`: the queue set's puts (its signals), the failed
    creations line and the API table (calls per function)."""
    bad = []
    tabs = stats_tables(path)
    text = open(path).read()
    m = re.search(r"RTOS objects that could not be created: (\d+)", text)
    want_failed = c.get("failed_total", 0)
    if want_failed and (not m or int(m.group(1)) != want_failed):
        bad.append("stats: failed creations %s, decoded %d" % (m.group(1) if m else "none", want_failed))
    api = {r[0]: r for r in tabs.get("RTOS API", [])}
    for fn, n in c.get("api_calls", {}).items():
        if fn not in api or int(api[fn][1]) != n:
            bad.append("stats: API %s calls %s, decoded %d" % (fn, api[fn][1] if fn in api else "none", n))
    return bad


def addr_of(v):
    """An address as JSONL gives it (a number, or hexadecimal text)."""
    return int(v, 16) if isinstance(v, str) else v


def check_heap(t, c, names):
    bad = []
    if len(t.report["APP_HEAP"]) != 1:
        return ["heap: no APP_HEAP report"]
    _, a = args_of(t.report["APP_HEAP"][0])
    want, nbytes = a[0:3], a[3]
    got = [sum(h[i] for h in c["heap"].values()) for i in range(3)]
    if got != want or c["heap_bytes"] != nbytes:
        bad.append("heap: allocs/failed/frees %s, %d bytes; decoded %s, %d bytes" % (want, nbytes, got,
                                                                                   c["heap_bytes"]))
    if want[1] < 1:
        bad.append("heap: no allocation failed: the example should make one fail")
    for ev in t.report["APP_THEAP"]:
        _, r = args_of(ev)
        task, counts, stack = r[0], r[1:4], r[4]
        nm = names.get(task, "none") if task else "none"
        if c["heap"][task] != counts:
            bad.append("heap: task %s allocs/failed/frees %s, decoded %s" % (nm, counts, c["heap"][task]))
        if stack != 0xFFFFFFFF:
            dec = c["stack"].get(task)
            ok = dec is not None and (dec >= stack if task == c["running"] else dec == stack)
            if not ok:
                bad.append("stack: task %s has %d bytes free at the end, decoded %s%s" %
                           (nm, stack, dec, " (it reports: at least that)" if task == c["running"] else ""))
    print("heap: allocs/failed/frees %s, %d bytes; stacks decoded for %d tasks" % (want, nbytes, len(c["stack"])))
    return bad


def check_low_power(t, c, names, tickless, stats, chrome):
    """Tickless idle's sleeps: decoded, in `sonde stats` and the Chrome export."""
    bad = []
    n = args_of(t.report["APP_LOWPOWER"][0])[1][0]
    if c["low_power"] != [n, n, 0]:
        bad.append("low power: %d sleeps, decoded begins/ends/not on idle %s" % (n, c["low_power"]))
    if tickless and n == 0:
        bad.append("low power: a tickless build that never slept")
    if stats:
        with open(stats) as f:
            lines = [ln for ln in f if ln.startswith("low power: ")]
        want = ["low power: %s %d times," % (names.get(c["idle"]), n)] if n else []
        if [ln[:len(want[0])] for ln in lines[:1]] != want[:1] or len(lines) != len(want):
            bad.append("stats: low power lines %s, want %s" % (lines, want))
    if chrome:
        with open(chrome) as f:
            d = json.load(f)
        evs = d["traceEvents"] if isinstance(d, dict) else d
        slices = sum(1 for e in evs if e.get("ph") == "B" and e.get("name") == "Low power")
        if slices != n:
            bad.append("chrome: %d Low power slices, %d sleeps" % (slices, n))
    print("low power: %d sleeps, decoded %s" % (n, c["low_power"]))
    return bad


def check_heap_stats(tabs, t, c, names):
    """`sonde stats`' heap tables and stack column against the application's counts."""
    bad = []
    _, a = args_of(t.report["APP_HEAP"][0])
    allocs, frees, leak, leak_task = a[0], a[2], a[4], a[5]
    by_task = {" ".join(r[:-5]): [int(x) for x in r[-5:-2]] for r in tabs.get("RTOS heap,", [])[1:]}
    for ev in t.report["APP_THEAP"]:
        _, r = args_of(ev)
        nm = names.get(r[0]) if r[0] else "No task"
        if r[1:4] != [0, 0, 0] and by_task.get(nm) != r[1:4]:
            bad.append("stats: heap of %s %s, the application's %s" % (nm, by_task.get(nm), r[1:4]))
    blocks = tabs.get("RTOS heap", [])[1:]
    if len(blocks) != allocs - frees:
        bad.append("stats: %d blocks still allocated, the application allocated %d and freed %d" %
                   (len(blocks), allocs, frees))
    rows = {int(r[0], 16): r for r in blocks}
    row = rows.get(leak)
    if not row or " ".join(row[2:-1]) != names.get(leak_task) or int(row[1]) != c["heap_sizes"].get(leak):
        bad.append("stats: the leaked block 0x%08x (%s, %s bytes) not listed as such: %s" %
                   (leak, names.get(leak_task), c["heap_sizes"].get(leak), row))
    for r in tabs.get("RTOS tasks,", [])[1:]:
        if len(r) < 8 or not r[-2].isdigit():
            continue
        nm = " ".join(r[:-7])
        ids = [i for i, n in names.items() if n == nm and i in c["stack"]]
        if ids and r[-1] != str(c["stack"][ids[0]]):
            bad.append("stats: %s stack min %s, decoded %s" % (nm, r[-1], c["stack"][ids[0]]))
    print("stats: %d heap blocks still allocated, the leak %s" % (len(blocks), row))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("decoded")
    ap.add_argument("--states", action="store_true",
                    help="the application classified the switch-out states (POSIX port)")
    ap.add_argument("--lossy", action="store_true",
                    help="the buffer overflowed: check the loss totals only")
    ap.add_argument("--stats", help="`sonde stats` of the capture: its tables must agree")
    ap.add_argument("--chrome", help="the Chrome JSON export: the holder tracks' names")
    ap.add_argument("--tickless", action="store_true",
                    help="a tickless build: the idle task must have slept in low power")
    ap.add_argument("--timer-wait", choices=["receive", "delayed"],
                    help="how the timer service task waits for commands")
    ap.add_argument("--api", choices=["yes", "no"],
                    help="the kernel has the V11 API hooks (the example turns them on): check the spans")
    ap.add_argument("--pend-name", help="the deferred function's name (decoded with --elf)")
    opt = ap.parse_args()

    t = Trace(opt.decoded)
    bad = []
    if t.report_at is None or len(t.report["APP_RUN"]) != 1:
        print("check_freertos: no complete report (APP_TASK, APP_OBJ, APP_RUN) in the trace")
        return 1
    _, run = args_of(t.report["APP_RUN"][0])
    st_records, st_over, st_refused, st_bytes = run[:4]

    # The loss totals: the last DROPS the decoder saw says what the target
    # overwrote and refused; they must be the totals the target counted.
    drops = [ev for ev in t.events if ev["kind"] == "drops"]
    over = drops[-1]["overwritten_total"] if drops else 0
    refused = drops[-1]["refused_total"] if drops else 0
    if (over, refused) != (st_over, st_refused):
        bad.append("loss totals: decoded DROPS say %d overwritten, %d refused; the target counted %d, %d"
                   % (over, refused, st_over, st_refused))
    print("loss: %d overwritten, %d refused (target: %d, %d)" % (over, refused, st_over, st_refused))
    if opt.lossy:
        if st_over + st_refused == 0:
            bad.append("--lossy, but nothing was lost: the test does not test losses")
        for b in bad:
            print("MISMATCH:", b)
        return 1 if bad else 0

    # Records and bytes written before APP_RUN (it carries the statistics
    # taken just before it) = decoded frames and its offset (a TIME_SYNC its
    # own write put right before it came after the snapshot).
    rep = t.events[t.run_at]
    frames = {ev["frame"] for ev in t.events[:t.run_at]}
    offset = rep["offset"]
    prev = t.events[t.run_at - 1]
    if prev["kind"] == "time_sync" and prev.get("ts") == rep.get("ts"):
        frames.discard(prev["frame"])
        offset = prev["offset"]
    if (len(frames), offset) != (st_records, st_bytes):
        bad.append("frames/bytes before the report: decoded %d/%d, target wrote %d/%d"
                   % (len(frames), offset, st_records, st_bytes))

    c = count(t)
    names = {}
    for ev in t.events:
        if ev["kind"] == "dict":
            names[ev["id"]] = ev.get("name")

    for ev in t.report["APP_TASK"]:
        _, a = args_of(ev)
        task, n_in, outs = a[0], a[1], a[2:6]
        nm = names.get(task, task)
        if c["in"][task] != n_in:
            bad.append("task %s: switched in %d times, decoded %d" % (nm, n_in, c["in"][task]))
        if opt.states and c["out"][task] != outs:
            bad.append("task %s: left ready/blocked/suspended/deleted %s, decoded %s" % (nm, outs, c["out"][task]))
        print("task %-8s in %5d  out %s" % (nm, n_in, outs))

    for ev in t.report["APP_OBJ"]:
        _, a = args_of(ev)
        obj, counts, level = a[0], a[1:7], a[7]
        nm = names.get(obj, obj)
        creates = c["ops"][(obj, "create", False)]
        if creates != (1 if c["kind"].get(obj) in ("mutex", "recursive mutex") else 0):
            bad.append("%s: %d creation gives (a mutex has one, inside its creation; no other object)"
                       % (nm, creates))
        mutexlike = c["kind"].get(obj) in ("binary semaphore", "counting semaphore", "mutex", "recursive mutex")
        put, get = ("give", "take") if mutexlike else ("send", "receive")
        got = [c["ops"][(obj, put, False)], c["ops"][(obj, put, True)],
               c["ops"][(obj, get, False)], c["ops"][(obj, get, True)],
               c["ops"][(obj, "peek", False)], c["ops"][(obj, "peek", True)]]
        if got != counts:
            bad.append("%s: put ok/failed, get ok/failed, peek ok/failed %s, decoded %s" % (nm, counts, got))
        if c["level"].get(obj) != level:
            bad.append("%s: level %d at the end, decoded %s" % (nm, level, c["level"].get(obj)))
        print("object %-8s %s level %d" % (nm, counts, level))

    # The announcements of the INFO before the report: every task still
    # alive and every object, with a kind and a name.
    infos = [i for i, ev in enumerate(t.events[:t.report_at])
             if ev["kind"] == "info" and ev.get("record") == "TARGET_INFO"]
    if not infos:
        bad.append("no TARGET_INFO before the report: the names were not sent again")
    else:
        announced, named = {}, set()
        for ev in t.events[infos[-1]:t.report_at]:
            if ev["kind"] == "object" and args_of(ev)[0].get("op") == "announced":
                announced[ev["object"]] = ev.get("type_name")
            elif ev["kind"] == "dict":
                named.add(ev["id"])
        want_ids = [args_of(ev)[1][0] for ev in t.report["APP_OBJ"]]
        want_ids += [args_of(ev)[1][0] for ev in t.report["APP_TASK"]
                     if c["out"][args_of(ev)[1][0]][DELETED] == 0]
        for i in want_ids:
            if i not in announced or i not in named:
                bad.append("INFO: %s %s announced%s" % (names.get(i, i), "not" if i not in announced else "",
                                                        "" if i in named else ", not named"))
        print("INFO: %d objects announced, %d names" % (len(announced), len(named)))

    keys = ["priority inherit", "priority disinherit", "notify", "notify take", "timer expired",
            "resume", "set bits", "wait bits", "wait bits timed out", "notify set value",
            "notify set value sum", "timer start"]
    want = dict(zip(keys, run[4:]))
    for key in keys[:7] + keys[9:]:
        if c["run"][key] != want[key]:
            bad.append("%s: %d, decoded %d" % (key, want[key], c["run"][key]))
    # An event-group wait that times out looks at the bits once more: the
    # kernel flags it timed out (OBJ_OP failed) even when they were set by
    # then, while the application sees the bits.  So the waits add up, and
    # the kernel's timeouts are at least the waits that found no bits.
    waits, timeouts = c["run"]["wait bits"] + c["run"]["wait bits timed out"], c["run"]["wait bits timed out"]
    if waits != want["wait bits"] + want["wait bits timed out"] or timeouts < want["wait bits timed out"]:
        bad.append("event waits: %d got the bits, %d timed out; decoded %d got, %d timed out"
                   % (want["wait bits"], want["wait bits timed out"], waits - timeouts, timeouts))
    print("run: " + ", ".join("%s %d" % (k, want[k]) for k in keys))
    if want["priority inherit"] == 0:
        bad.append("no priority inheritance happened: the example should provoke it")
    bad.extend(c["inherit_bad"])

    bad.extend(check_idle(t, c))
    bad.extend(check_sets(t, c, names, opt.api, opt.pend_name))
    c["failed_total"] = sum(1 for ev in t.events[:t.report_at] if ev["kind"] == "object" and
                            args_of(ev)[0].get("op") == "create failed")
    if opt.stats:
        bad.extend(check_stats_sets(opt.stats, c))
    if t.report["APP_HEAP"] or t.report["APP_THEAP"]:
        bad.extend(check_heap(t, c, names))
    if t.report["APP_LOWPOWER"]:
        bad.extend(check_low_power(t, c, names, opt.tickless, opt.stats, opt.chrome))
    elif opt.tickless:
        bad.append("--tickless, but no APP_LOWPOWER report")
    if opt.stats:
        bad.extend(check_stats(opt.stats, t, c, names))
    if opt.chrome:
        bad.extend(check_chrome(opt.chrome, t, c, names))
        bad.extend(check_chrome_sets(opt.chrome, t, names))
    if opt.timer_wait:
        bad.extend(check_timer_wait(t, c, names, opt.timer_wait))

    for b in bad:
        print("MISMATCH:", b)
    print("check_freertos: %s" % ("FAIL" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
