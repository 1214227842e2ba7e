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
    const response = await fetch("/v3/sandbox/test-values");
    if (!response.ok) {
      status.textContent = "Test values are served in the sandbox only: switch to sandbox.";
      return;
    }
    const entries = (await response.json()).data;
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
  const reviewer = root.dataset.reviewer;
  const canReview = root.dataset.canReview === "yes";
  const hits = document.querySelector("#hits tbody");
  const status = document.getElementById("screen-status");
  const reviews = document.querySelector("#reviews tbody");
  let subjectKey = null;

  async function loadReviews() {
    const answer = await hakikiApi(csrf, "GET", "/v3/account/screening-reviews");
    reviews.replaceChildren();
    for (const r of (answer.data && answer.data.data) || []) {
      const row = document.createElement("tr");
      [r.created_at, r.list_code, r.entity_id, r.decision, r.reviewer, r.reason].forEach((v) => cell(row, v));
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
        reviewer: reviewer,
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
    if (answer.status !== 200) {
      status.textContent = "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
      return;
    }
    subjectKey = answer.data.data.aml.subject_key;
    status.textContent = answer.data.message;
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
    [scan.created_at, scan.file_name, scan.scan_type, scan.status].forEach((v) => cell(tr, v));
    const progress = document.createElement("progress");
    progress.max = Math.max(1, scan.total_records);
    progress.value = scan.processed_records;
    progress.setAttribute("aria-label", "Rows scanned of " + scan.file_name);
    const td = cell(tr, "");
    td.appendChild(progress);
    td.append(" " + scan.processed_records + " / " + scan.total_records);
    const download = cell(tr, "");
    if (scan.status === "completed") {
      for (const format of ["csv", "xlsx"]) {
        const a = document.createElement("a");
        a.href = scan.results_file.split("?")[0] + "?format=" + format;
        a.textContent = format.toUpperCase();
        download.append(a, " ");
      }
    }
    return tr;
  }

  async function refresh() {
    const answer = await hakikiApi(csrf, "GET", "/v3/fraud/bulk-scan");
    const scans = (answer.data && answer.data.data) || [];
    list.replaceChildren(...scans.map(row));
    const running = scans.some((s) => s.status === "pending" || s.status === "processing");
    clearTimeout(timer);
    if (running) timer = setTimeout(refresh, 1000);
  }

  document.getElementById("bulk-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const answer = await hakikiApi(csrf, "POST", "/v3/fraud/bulk-scan/upload", form);
    status.textContent = answer.status === 202
      ? "Scan " + answer.data.bulk_id + " started: " + answer.data.total_records + " rows."
      : "Refused (" + answer.status + "): " + ((answer.data && answer.data.message) || "");
    refresh();
  });
  refresh();
})();
