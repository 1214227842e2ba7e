// The playground: sends an endpoint's documented sandbox test values with the console session
// (the cookie authenticates; unsafe methods carry the session's X-CSRF-Token).
"use strict";
(function () {
  const root = document.getElementById("playground");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const endpointSelect = document.getElementById("pg-endpoint");
  const caseSelect = document.getElementById("pg-case");
  const body = document.getElementById("pg-body");
  const status = document.getElementById("pg-status");
  const output = document.getElementById("pg-response");
  let byEndpoint = new Map();

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }

  function showCase() {
    const entry = byEndpoint.get(endpointSelect.value)[Number(caseSelect.value)];
    const input = entry.body || entry.query || entry.multipart || {};
    body.value = JSON.stringify(input, null, 2);
    body.disabled = Boolean(entry.multipart);
  }

  function showCases() {
    caseSelect.replaceChildren();
    byEndpoint.get(endpointSelect.value).forEach((entry, n) => option(caseSelect, String(n), entry.description));
    showCase();
  }

  function decode(b64) {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  }

  async function send() {
    const entry = byEndpoint.get(endpointSelect.value)[Number(caseSelect.value)];
    let url = entry.path;
    const init = { method: entry.method, headers: { "X-CSRF-Token": csrf } };
    let input;
    try {
      input = body.value.trim() ? JSON.parse(body.value) : {};
    } catch (err) {
      status.textContent = "The body is not JSON: " + err.message;
      return;
    }
    if (entry.multipart) {
      const form = new FormData();
      for (const [k, v] of Object.entries(entry.multipart.fields)) form.append(k, v);
      for (const [k, f] of Object.entries(entry.multipart.files)) {
        form.append(k, new Blob([decode(f.content_base64)], { type: f.content_type }), f.filename);
      }
      init.body = form;
    } else if (entry.method === "GET" || entry.method === "DELETE") {
      const query = new URLSearchParams(input);
      if ([...query].length) url += "?" + query.toString();
    } else {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(input);
    }
    status.textContent = "Sending " + entry.method + " " + url + " ...";
    const response = await fetch(url, init);
    const text = await response.text();
    status.textContent = entry.method + " " + url + " → " + response.status +
      " (expected " + entry.expect.http_status + ")";
    try {
      output.textContent = JSON.stringify(JSON.parse(text), null, 2);
    } catch (err) {
      output.textContent = text;
    }
  }

  async function load() {
    // The list is paginated like every list: read its pages of 100.
    const entries = [];
    for (let page = 1; ; page++) {
      const response = await fetch("/v3/sandbox/test-values?page_size=100&page=" + page);
      if (!response.ok) {
        status.textContent = "Test values are served in the sandbox only: switch to sandbox.";
        return;
      }
      const body = await response.json();
      entries.push(...body.data);
      if (page >= body.pagination.total_pages) break;
    }
    byEndpoint = new Map();
    for (const entry of entries) {
      const key = entry.method + " " + entry.path;
      if (!byEndpoint.has(key)) byEndpoint.set(key, []);
      byEndpoint.get(key).push(entry);
    }
    for (const key of byEndpoint.keys()) option(endpointSelect, key, key);
    showCases();
    root.dataset.ready = "yes";
  }

  endpointSelect.addEventListener("change", showCases);
  caseSelect.addEventListener("change", showCase);
  document.getElementById("pg-send").addEventListener("click", () => { send(); });
  load();
})();

// Shared by the pages below: a call to the API with the session (and its CSRF token).
function hakikiApi(csrf, method, url, body) {
  const init = { method: method, headers: { "X-CSRF-Token": csrf } };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch(url, init).then(async (response) => {
    let data = null;
    try { data = await response.json(); } catch (err) { data = null; }
    return { status: response.status, data: data };
  });
}

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text === null || text === undefined ? "" : String(text);
  row.appendChild(td);
  return td;
}

// Screening hits and their review.
(function () {
  const root = document.getElementById("screening");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const canReview = root.dataset.canReview === "yes";
  const hits = document.querySelector("#hits tbody");
  const outcomes = document.querySelector("#outcomes tbody");
  const lists = document.querySelector("#screened-lists tbody");
  const status = document.getElementById("screen-status");
  const reviews = document.querySelector("#reviews tbody");
  let subjectKey = null;

  async function loadReviews() {
    const answer = await hakikiApi(csrf, "GET", "/v3/account/screening-reviews");
    reviews.replaceChildren();
    for (const r of (answer.data && answer.data.data) || []) {
      const row = document.createElement("tr");
      [r.created_at, r.list_title || r.list_code, r.entity_name || r.entity_id + " (no longer on the loaded list)", r.decision, r.reviewer, r.reason].forEach((v) => cell(row, v));
      reviews.appendChild(row);
    }
  }

  function reviewForm(hit, n) {
    const form = document.createElement("form");
    form.className = "review";
    const decisionId = "decision-" + n;
    const reasonId = "reason-" + n;
    form.innerHTML =
      '<label for="' + decisionId + '">Decision</label>' +
      '<select id="' + decisionId + '"><option value="false_positive">false positive</option>' +
      '<option value="true_match">true match</option></select>' +
      '<label for="' + reasonId + '">Reason</label>' +
      '<input id="' + reasonId + '" required minlength="3">' +
      '<button type="submit">Record the review</button>';
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const answer = await hakikiApi(csrf, "POST", "/v3/account/screening-reviews", {
        subject_key: subjectKey,
        list_code: hit.list_code,
        entity_id: hit.entity_id,
        entity_fingerprint: hit.entity_fingerprint,
        decision: form.querySelector("select").value,
        reason: form.querySelector("input").value,
      });
      status.textContent = answer.status === 201
        ? "Review recorded for " + hit.entity_name + " (" + hit.list_code + ")."
        : "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      if (answer.status === 201) { form.replaceChildren("reviewed"); loadReviews(); }
    });
    return form;
  }

  document.getElementById("screen-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const checks = [...root.querySelectorAll('input[name="check"]:checked')].map((c) => c.value);
    const answer = await hakikiApi(csrf, "POST", "/v3/screening/aml", {
      name: document.getElementById("screen-name").value,
      checks: checks,
    });
    hits.replaceChildren();
    outcomes.replaceChildren();
    lists.replaceChildren();
    if (answer.status !== 200) {
      status.textContent = "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      return;
    }
    const aml = answer.data.data.aml;
    subjectKey = aml.subject_key;
    status.textContent = aml.status + " (verdict " + (answer.data.verdict || "none") + "): " + answer.data.message;
    for (const o of aml.outcomes) {
      const row = document.createElement("tr");
      [o.check, o.outcome.replace("_", " "), o.reason || ""].forEach((v) => cell(row, v));
      outcomes.appendChild(row);
    }
    for (const l of aml.lists) {
      const row = document.createElement("tr");
      [l.title, l.version, l.published || "unknown", l.age_days, l.stale ? "stale" : "fresh"]
        .forEach((v) => cell(row, v));
      lists.appendChild(row);
    }
    answer.data.data.aml.hits.forEach((hit, n) => {
      const row = document.createElement("tr");
      [hit.check, hit.list_code, hit.entity_name, hit.score].forEach((v) => cell(row, v));
      const action = cell(row, "");
      if (hit.review) action.textContent = hit.review.decision + " by " + hit.review.reviewer;
      else if (canReview) action.appendChild(reviewForm(hit, n));
      hits.appendChild(row);
    });
  });
  loadReviews();
})();

// Bulk scans: upload, follow progress, download the results.
(function () {
  const root = document.getElementById("bulk");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const list = document.querySelector("#scans tbody");
  const status = document.getElementById("bulk-status");
  let timer = null;

  function row(scan) {
    const tr = document.createElement("tr");
    tr.id = "scan-" + scan.bulk_id;
    [scan.created_at, scan.file_name, scan.scan_type, scan.state].forEach((v) => cell(tr, v));
    const progress = document.createElement("progress");
    progress.max = Math.max(1, scan.total_records);
    progress.value = scan.processed_records;
    progress.setAttribute("aria-label", "Rows scanned of " + scan.file_name);
    const td = cell(tr, "");
    td.appendChild(progress);
    td.append(" " + scan.processed_records + " / " + scan.total_records);
    const download = cell(tr, "");
    if (scan.state === "completed") {
      for (const format of ["csv", "xlsx"]) {
        const a = document.createElement("a");
        a.href = scan.results_file.split("?")[0] + "?format=" + format;
        a.textContent = format.toUpperCase();
        download.append(a, " ");
      }
    }
    const open = document.createElement("a");
    open.href = (scan.scan_type === "face" ? "/console/face-scans/" : "/console/bulk-scans/") +
      encodeURIComponent(scan.bulk_id);
    open.textContent = "Rows and risk levels";
    download.append(open);
    return tr;
  }

  async function refresh() {
    const only = root.dataset.scanType;
    const query = only ? "?scan_type=" + encodeURIComponent(only) : "";
    const answer = await hakikiApi(csrf, "GET", "/v3/fraud/bulk-scan" + query);
    const scans = (answer.data && answer.data.data) || [];
    list.replaceChildren(...scans.map(row));
    const running = scans.some((s) => s.state === "pending" || s.state === "processing");
    clearTimeout(timer);
    if (running) timer = setTimeout(refresh, 1000);
  }

  const upload = document.getElementById("bulk-form");
  if (upload) upload.addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const answer = await hakikiApi(csrf, "POST", "/v3/fraud/bulk-scan/upload", form);
    status.textContent = answer.status === 202
      ? "Scan " + answer.data.reference + " started: " + answer.data.data.total_records + " rows."
      : "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
    refresh();
  });
  refresh();
})();

// Background checks: candidates, a request's checks and timeline, the analyst's manual form.
(function () {
  const root = document.getElementById("background");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const canReview = root.dataset.canReview === "yes";
  const list = document.querySelector("#candidates tbody");
  const detail = document.getElementById("candidate-detail");
  const status = document.getElementById("background-status");

  function manualForm(reference, check) {
    const form = document.createElement("form");
    const id = "bg-" + check.code;
    form.innerHTML =
      '<label for="' + id + '-result">Result</label>' +
      '<select id="' + id + '-result"><option value="clear">clear</option><option value="consider">consider</option></select>' +
      '<label for="' + id + '-notes">What you saw (evidence)</label>' +
      '<textarea id="' + id + '-notes" required maxlength="2000"></textarea>' +
      '<button type="submit">Record the result</button>';
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const url = "/v3/background/candidates/" + encodeURIComponent(reference) +
        "/checks/" + encodeURIComponent(check.code) + "/result";
      const answer = await hakikiApi(csrf, "POST", url, {
        result: form.querySelector("select").value,
        evidence: { notes: form.querySelector("textarea").value },
      });
      status.textContent = answer.status < 300
        ? "Recorded " + check.code + "."
        : "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      show(reference);
    });
    return form;
  }

  async function show(reference) {
    const answer = await hakikiApi(csrf, "GET", "/v3/background/candidates/" + encodeURIComponent(reference));
    if (answer.status !== 200) { status.textContent = "Not found."; return; }
    const r = answer.data.data;
    detail.replaceChildren();
    const title = document.createElement("h2");
    title.textContent = r.reference + ": " + r.state + (r.result ? " (" + r.result + ")" : "");
    const checks = document.createElement("table");
    checks.innerHTML = '<thead><tr><th scope="col">Check</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Result</th><th scope="col">Analyst</th><th scope="col">Record</th></tr></thead><tbody></tbody>';
    for (const c of r.checks) {
      const tr = document.createElement("tr");
      [c.name, c.kind, c.status, c.result, c.recorded_by].forEach((v) => cell(tr, v));
      if (c.status === "awaiting_analyst" && canReview) cell(tr, "").appendChild(manualForm(r.reference, c));
      checks.tBodies[0].appendChild(tr);
    }
    const timeline = document.createElement("ol");
    timeline.id = "timeline";
    for (const t of r.timeline) {
      const li = document.createElement("li");
      li.textContent = t.at + " " + t.event + " → " + t.status + (t.detail ? ": " + t.detail : "");
      timeline.appendChild(li);
    }
    const heading = document.createElement("h3");
    heading.textContent = "Timeline";
    detail.append(title, checks, heading, timeline);
  }

  async function refresh() {
    const answer = await hakikiApi(csrf, "GET", "/v3/background/candidates");
    list.replaceChildren();
    for (const r of (answer.data && answer.data.data) || []) {
      const tr = document.createElement("tr");
      const ref = cell(tr, "");
      const open = document.createElement("button");
      open.type = "button";
      open.className = "link";
      open.textContent = r.reference;
      open.addEventListener("click", () => show(r.reference));
      const page = document.createElement("a");
      page.href = "/console/background/" + encodeURIComponent(r.reference);
      page.textContent = "page";
      ref.append(" ", page);
      ref.appendChild(open);
      [r.candidate.first_name + " " + r.candidate.last_name, r.package.name || r.package.id, r.state, r.result, r.created_at].forEach((v) => cell(tr, v));
      list.appendChild(tr);
    }
    if (answer.status !== 200) status.textContent = "Refused (" + answer.status + ").";
  }
  refresh();
})();

// Webhook endpoints and deliveries, with resend.
(function () {
  const root = document.getElementById("webhooks");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const canRun = root.dataset.canRun === "yes";
  const status = document.getElementById("webhooks-status");
  const base = "/v3/account/webhooks";

  async function refresh() {
    const endpoints = await hakikiApi(csrf, "GET", base);
    const body = document.querySelector("#endpoints tbody");
    body.replaceChildren();
    for (const e of (endpoints.data && endpoints.data.data) || []) {
      const tr = document.createElement("tr");
      [e.url, (e.events || ["every event"]).join(", "), e.created_at].forEach((v) => cell(tr, v));
      body.appendChild(tr);
    }
    const deliveries = await hakikiApi(csrf, "GET", base + "/deliveries");
    const rows = document.querySelector("#deliveries tbody");
    rows.replaceChildren();
    for (const d of (deliveries.data && deliveries.data.data) || []) {
      const tr = document.createElement("tr");
      [d.created_at, d.event_type, d.status, d.attempt_count, d.delivered_at].forEach((v) => cell(tr, v));
      const action = cell(tr, "");
      if (canRun && d.status !== "pending") {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Resend";
        button.setAttribute("aria-label", "Resend delivery " + d.id);
        button.addEventListener("click", async () => {
          const answer = await hakikiApi(csrf, "POST", base + "/deliveries/" + encodeURIComponent(d.id) + "/resend");
          status.textContent = "Resend: " + answer.status + " " + ((answer.data && (answer.data.status || answer.data.message)) || "");
          refresh();
        });
        action.appendChild(button);
      }
      rows.appendChild(tr);
    }
  }
  refresh();
})();

// Screening lists and their freshness.
(function () {
  const root = document.getElementById("lists");
  if (!root) return;
  hakikiApi(root.dataset.csrf, "GET", "/v3/account/lists").then((answer) => {
    const body = document.querySelector("#list-table tbody");
    for (const l of (answer.data && answer.data.data) || []) {
      const tr = document.createElement("tr");
      [l.title, l.checks.join(", "), l.version, l.date, l.age_days, !l.in_use ? "not loaded" : l.stale ? "stale" : "fresh", l.entity_count, l.last_error]
        .forEach((v) => cell(tr, v));
      body.appendChild(tr);
    }
  });
})();

// Fraud reports the organisation submitted, searchable by identity number.
(function () {
  const root = document.getElementById("reports");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const body = document.querySelector("#report-table tbody");
  const status = document.getElementById("reports-status");

  async function load(identifier) {
    const query = identifier ? "?identifier=" + encodeURIComponent(identifier) : "";
    const answer = await hakikiApi(csrf, "GET", "/v3/fraud/reports" + query);
    body.replaceChildren();
    if (answer.status !== 200) {
      status.textContent = "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      return;
    }
    const reports = answer.data.data;
    status.textContent = reports.length + " report(s).";
    for (const r of reports) {
      const tr = document.createElement("tr");
      [r.created_at, r.id, r.incident.category, r.incident.date, r.status, r.face_enrolled ? "yes" : "no"]
        .forEach((v) => cell(tr, v));
      body.appendChild(tr);
    }
  }

  document.getElementById("reports-form").addEventListener("submit", (event) => {
    event.preventDefault();
    load(document.getElementById("reports-identifier").value.trim());
  });
  load("");
})();

// The audit log (owners and admins): who read or changed personal data, a page at a time.
(function () {
  const root = document.getElementById("audit");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const body = document.querySelector("#audit-table tbody");
  const status = document.getElementById("audit-status");
  const more = document.getElementById("audit-more");
  let page = 1;

  async function load() {
    const answer = await hakikiApi(csrf, "GET", "/v3/privacy/audit-log?page_size=50&page=" + page);
    if (answer.status !== 200) {
      status.textContent = "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      more.hidden = true;
      return;
    }
    for (const e of answer.data.data) {
      const tr = document.createElement("tr");
      [e.created_at, e.actor_type + " " + e.actor_id, e.action, e.resource_type, e.resource_id, e.request_id]
        .forEach((v) => cell(tr, v));
      body.appendChild(tr);
    }
    const p = answer.data.pagination;
    status.textContent = p.total_items + " row(s).";
    more.hidden = p.page >= p.total_pages;
  }

  more.addEventListener("click", () => { page += 1; load(); });
  load();
})();

// Statement analyses: upload, follow the job, read the verdict, signals, metrics and score.
(function () {
  const root = document.getElementById("statements");
  if (!root) return;
  const csrf = root.dataset.csrf;
  const status = document.getElementById("statement-status");
  const result = document.getElementById("statement-result");
  let timer = null;

  function line(label, value) {
    const p = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = label + ": ";
    p.append(strong, value === null || value === undefined ? "" : String(value));
    return p;
  }

  function show(a) {
    const parts = [
      line("Analysis", a.analysis_id),
      line("Status", a.state + " (" + a.progress + "%)"),
      line("Layout", a.layout),
      line("Verdict", a.verdict),
    ];
    if (a.duplicate_of) parts.push(line("Duplicate of", a.duplicate_of));
    if (a.failure_reason) parts.push(line("Failed", a.failure_reason));
    if (a.score) parts.push(line("Cash-flow score", a.score.score));
    const signals = document.createElement("table");
    signals.id = "statement-signals";
    const head = signals.createTHead().insertRow();
    ["Signal", "Severity", "Evidence"].forEach((t) => {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = t;
      head.appendChild(th);
    });
    const body = signals.createTBody();
    for (const s of a.signals || []) {
      const tr = body.insertRow();
      [s.code, s.severity, JSON.stringify(s.evidence)].forEach((v) => cell(tr, v));
    }
    parts.push(signals);
    if (a.metrics) {
      const pre = document.createElement("pre");
      pre.textContent = JSON.stringify(a.metrics, null, 2);
      parts.push(pre);
    }
    result.replaceChildren(...parts);
  }

  async function follow(id) {
    clearTimeout(timer);
    const answer = await hakikiApi(csrf, "GET", "/v3/statements/" + encodeURIComponent(id) + "?page_size=1");
    if (answer.status !== 200) {
      status.textContent = "Not found (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      result.replaceChildren();
      return;
    }
    show(answer.data.data);
    if (answer.data.async_pending) {
      timer = setTimeout(() => follow(id), 1000);
    }
  }

  const upload = document.getElementById("statement-form");
  if (upload) {
    upload.addEventListener("submit", async (event) => {
      event.preventDefault();
      const form = new FormData(event.target);
      if (!form.get("password")) form.delete("password");
      // The applicant's consent, as the API takes it (docs/privacy.md#consent).
      form.set("consent", JSON.stringify({
        obtained_at: new Date().toISOString(),
        method: form.get("consent_method"),
        notice_version: form.get("consent_notice"),
        purposes: ["statement_analysis"],
        language: form.get("consent_language"),
      }));
      for (const name of ["consent_method", "consent_notice", "consent_language", "consent_given"]) {
        form.delete(name);
      }
      const answer = await hakikiApi(csrf, "POST", "/v3/statements/analyze", form);
      if (answer.status === 202) {
        status.textContent = "Analysis " + answer.data.reference + " started.";
        follow(answer.data.reference);
      } else {
        status.textContent = "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      }
    });
  }
  document.getElementById("statement-find").addEventListener("submit", (event) => {
    event.preventDefault();
    status.textContent = "";
    follow(new FormData(event.target).get("analysis_id"));
  });
})();
