// The hosted verification page (hakiki/verification/hosted.py): consent, ID number, a photo
// of the document with live guidance, and the selfie with active liveness. No library, no
// third-party asset; the words come from the page's #config block (English or Swahili).
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("config").textContent);
  var S = cfg.strings;
  var base = location.pathname.replace(/\/+$/, "");
  var app = document.getElementById("app");
  var state = { id_number: null, document: null, frames: [], nonce: null };
  var queue = cfg.steps.filter(function (s) { return s !== "screening"; });

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text) node.textContent = text;
    return node;
  }
  function show() {
    while (app.firstChild) app.removeChild(app.firstChild);
    for (var i = 0; i < arguments.length; i++) app.appendChild(arguments[i]);
  }
  function say(id, text) {
    var node = document.getElementById(id);
    if (node) node.textContent = text;
  }
  function post(path, body) {
    return fetch(base + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        return { ok: r.ok, status: r.status, data: data };
      });
    });
  }
  function camera(facing, width, height) {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      return Promise.reject(new Error("no camera"));
    }
    return navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: facing, width: { ideal: width }, height: { ideal: height } },
    });
  }
  function stop(stream) {
    if (stream) stream.getTracks().forEach(function (t) { t.stop(); });
  }
  function playing(video, stream) {
    video.srcObject = stream;
    video.muted = true;
    video.setAttribute("playsinline", "");
    return new Promise(function (resolve) {
      video.onplaying = function () { resolve(); };
      video.play();
    });
  }
  function next() {
    var step = queue.shift();
    if (step === "id_number") return idStep();
    if (step === "document") return documentStep();
    if (step === "selfie_liveness") return selfieStep();
    return submit();
  }

  // Consent ------------------------------------------------------------------------------
  function consentStep() {
    var box = el("input", { type: "checkbox", id: "consent" });
    var label = el("label", { for: "consent" });
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + S.agree));
    var button = el("button", { id: "start", type: "button" }, S.start);
    var error = el("p", { id: "error", class: "error", role: "alert" });
    button.onclick = function () {
      if (!box.checked) { error.textContent = S.consent_needed; return; }
      button.disabled = true;
      post("/start", { consent: true, language: cfg.lang }).then(function (r) {
        button.disabled = false;
        if (!r.ok) { error.textContent = (r.data && r.data.message) || S.retry; return; }
        next();
      }, function () { button.disabled = false; error.textContent = S.failed_send; });
    };
    show(el("p", { class: "consent" }, S.consent), label, button, error);
  }

  // ID number ----------------------------------------------------------------------------
  function idStep() {
    var input = el("input", { id: "id_number", type: "text", inputmode: "text", autocomplete: "off", maxlength: "30" });
    var button = el("button", { id: "id_next", type: "button" }, S.next);
    var error = el("p", { id: "error", class: "error", role: "alert" });
    button.onclick = function () {
      var value = input.value.trim();
      if (!value) { error.textContent = S.id_needed; return; }
      state.id_number = value;
      next();
    };
    var label = el("label", { for: "id_number" }, S.id_heading + (cfg.id_label ? " (" + cfg.id_label + ")" : ""));
    show(el("h2", {}, S.id_heading), label, input, button, error);
  }

  // Document -----------------------------------------------------------------------------
  // Simple checks on a small copy of the preview, a few times a second: light, glare, blur,
  // and whether the card's edges lie along the frame's guide.
  function guidance(video, canvas) {
    var w = 160, h = 120;
    canvas.width = w; canvas.height = h;
    var ctx = canvas.getContext("2d", { willReadFrequently: true });
    ctx.drawImage(video, 0, 0, w, h);
    var px = ctx.getImageData(0, 0, w, h).data;
    var grey = new Float32Array(w * h), sum = 0, burnt = 0;
    for (var i = 0; i < w * h; i++) {
      var r = px[4 * i], g = px[4 * i + 1], b = px[4 * i + 2];
      grey[i] = 0.299 * r + 0.587 * g + 0.114 * b;
      sum += grey[i];
      if (r >= 250 && g >= 250 && b >= 250) burnt++;
    }
    var mean = sum / (w * h);
    var lap = 0, lap2 = 0, n = 0, grad = new Float32Array(w * h);
    for (var y = 1; y < h - 1; y++) {
      for (var x = 1; x < w - 1; x++) {
        var k = y * w + x;
        var l = grey[k - 1] + grey[k + 1] + grey[k - w] + grey[k + w] - 4 * grey[k];
        lap += l; lap2 += l * l; n++;
        grad[k] = Math.abs(grey[k + 1] - grey[k - 1]) + Math.abs(grey[k + w] - grey[k - w]);
      }
    }
    var sharp = lap2 / n - (lap / n) * (lap / n);
    // The guide: 84% of the width, an ID-1 card's proportions, centred.
    var gw = Math.round(w * 0.84), gh = Math.round(gw / 1.586);
    var gx = Math.round((w - gw) / 2), gy = Math.round((h - gh) / 2);
    function band(x0, y0, x1, y1) {
      var s = 0, c = 0;
      for (var yy = Math.max(1, y0); yy < Math.min(h - 1, y1); yy++) {
        for (var xx = Math.max(1, x0); xx < Math.min(w - 1, x1); xx++) { s += grad[yy * w + xx]; c++; }
      }
      return c ? s / c : 0;
    }
    var inner = band(gx + 8, gy + 8, gx + gw - 8, gy + gh - 8) + 1;
    var edges = [band(gx - 3, gy - 3, gx + gw + 3, gy + 3), band(gx - 3, gy + gh - 3, gx + gw + 3, gy + gh + 3),
      band(gx - 3, gy - 3, gx + 3, gy + gh + 3), band(gx + gw - 3, gy - 3, gx + gw + 3, gy + gh + 3)];
    var fits = edges.every(function (e) { return e > inner * 0.8; });
    if (mean < 45) return "dark";
    if (burnt / (w * h) > 0.02) return "glare";
    if (sharp < 20) return "blur";
    if (!fits) return "fit";
    return "good";
  }

  function shrink(source, width, height, maxSide, quality) {
    var scale = Math.min(1, maxSide / Math.max(width, height));
    var canvas = document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    canvas.getContext("2d").drawImage(source, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/jpeg", quality);
  }

  function documentStep() {
    var video = el("video", { id: "doc_video", autoplay: "", playsinline: "", muted: "" });
    var frame = el("div", { class: "frame" });
    frame.appendChild(video);
    frame.appendChild(el("div", { class: "guide" }));
    var hint = el("p", { id: "doc_guidance", role: "status", "aria-live": "polite" }, S.doc_help);
    var capture = el("button", { id: "doc_capture", type: "button" }, S.capture);
    var fileLabel = el("label", { for: "doc_file", class: "file" }, S.or_file);
    var file = el("input", { id: "doc_file", type: "file", accept: "image/*", capture: "environment" });
    var preview = el("img", { id: "doc_preview", alt: "", hidden: "" });
    var ok = el("button", { id: "doc_next", type: "button", hidden: "" }, S.next);
    var error = el("p", { id: "error", class: "error", role: "alert" });
    var canvas = document.createElement("canvas");
    var stream = null, timer = null;
    show(el("h2", {}, S.doc_heading), el("p", {}, S.doc_help), frame, hint, capture, fileLabel, file, preview, ok, error);

    function chosen(dataUrl) {
      state.document = dataUrl;
      preview.src = dataUrl;
      preview.hidden = false;
      ok.hidden = false;
    }
    camera("environment", 1920, 1080).then(function (s) {
      stream = s;
      return playing(video, s).then(function () {
        timer = setInterval(function () { say("doc_guidance", S[guidance(video, canvas)]); }, 400);
      });
    }, function () { frame.hidden = true; capture.hidden = true; error.textContent = S.no_camera; });
    capture.onclick = function () {
      if (!video.videoWidth) return;
      chosen(shrink(video, video.videoWidth, video.videoHeight, 1600, 0.85));
    };
    file.onchange = function () {
      var f = file.files && file.files[0];
      if (!f) return;
      var img = new Image();
      img.onload = function () { chosen(shrink(img, img.naturalWidth, img.naturalHeight, 1600, 0.85)); };
      img.src = URL.createObjectURL(f);
    };
    ok.onclick = function () {
      if (timer) clearInterval(timer);
      stop(stream);
      next();
    };
  }

  // Selfie with active liveness ------------------------------------------------------------
  function selfieStep() {
    var video = el("video", { id: "selfie_video", class: "mirror", autoplay: "", playsinline: "", muted: "" });
    var prompt = el("p", { id: "prompt", class: "prompt", role: "status", "aria-live": "assertive" });
    var button = el("button", { id: "selfie_start", type: "button" }, S.start);
    var error = el("p", { id: "error", class: "error", role: "alert" });
    show(el("h2", {}, S.selfie_heading), el("p", {}, S.selfie_help), video, prompt, button, error);
    button.onclick = function () {
      button.disabled = true;
      error.textContent = "";
      var stream = null, challenge = null;
      // The challenge first: its clock starts when the camera shows the first frame.
      post("/challenge", {}).then(function (r) {
        if (!r.ok) throw new Error((r.data && r.data.message) || S.retry);
        challenge = r.data;
        return camera("user", 640, 480);
      }).then(function (s) {
        stream = s;
        return playing(video, s);
      }).then(function () {
        return run(video, challenge);
      }).then(function (frames) {
        stop(stream);
        state.frames = frames;
        next();
      }).catch(function (e) {
        stop(stream);
        button.disabled = false;
        error.textContent = e && e.message ? e.message : S.no_camera;
      });
    };
  }

  function run(video, challenge) {
    state.nonce = challenge.nonce;
    var lead = challenge.lead_ms, step = challenge.step_ms, steps = challenge.steps;
    var end = lead + step * steps.length + 200;
    var every = 1000 / (challenge.fps || 4);
    var width = 320, height = Math.round(320 * (video.videoHeight || 240) / (video.videoWidth || 320));
    var canvas = document.createElement("canvas");
    canvas.width = width; canvas.height = height;
    var ctx = canvas.getContext("2d");
    var frames = [];
    var t0 = performance.now();
    return new Promise(function (resolve) {
      function tick() {
        var t = Math.round(performance.now() - t0);
        if (t > end) { resolve(frames); return; }
        var index = t < lead ? -1 : Math.floor((t - lead) / step);
        say("prompt", index < 0 || index >= steps.length ? S.straight : S[steps[index]]);
        ctx.drawImage(video, 0, 0, width, height);
        frames.push({ t: t, image: canvas.toDataURL("image/jpeg", 0.8) });
        var wait = every - ((performance.now() - t0) % every);
        setTimeout(tick, wait);
      }
      tick();
    });
  }

  // Submit -------------------------------------------------------------------------------
  function submit() {
    var status = el("p", { id: "sending", role: "status" }, S.sending);
    var error = el("p", { id: "error", class: "error", role: "alert" });
    show(status, error);
    post("/submit", {
      nonce: state.nonce,
      id_number: state.id_number,
      document_image: state.document,
      frames: state.frames,
    }).then(function (r) {
      if (!r.ok) { status.textContent = ""; error.textContent = (r.data && r.data.message) || S.retry; return; }
      show(el("p", { id: "done" }, S.done));
      if (r.data.redirect_url) setTimeout(function () { location.assign(r.data.redirect_url); }, 1500);
    }, function () { status.textContent = ""; error.textContent = S.failed_send; });
  }

  consentStep();
})();
