// The search box's suggestions (ARIA 1.2 combobox with a listbox popup), on /v1/search.
// Without this script the form still works: it submits to the list filtered by name.
// With data-fill (the mare of the stallions' ranking), choosing writes the horse's id into that
// field and says so, instead of opening the record; with data-sexe, only horses of that sex are
// suggested (the ranking's mare: Femelle).
"use strict"
;(() => {
  const input = document.querySelector("input[data-suggest]")
  if (input === null) return
  const listbox = document.getElementById(input.getAttribute("aria-controls"))
  const status = document.getElementById(input.dataset.status)
  const recordBase = input.dataset.record
  const fill = input.dataset.fill === undefined ? null : document.getElementById(input.dataset.fill)
  const sexe = input.dataset.sexe
  let controller
  let timer
  let options = []
  let active = -1

  const setActive = (index) => {
    if (active >= 0 && options[active]) options[active].setAttribute("aria-selected", "false")
    active = index
    if (active >= 0 && options[active]) {
      const option = options[active]
      option.setAttribute("aria-selected", "true")
      input.setAttribute("aria-activedescendant", option.id)
      option.scrollIntoView({ block: "nearest" })
    } else {
      input.removeAttribute("aria-activedescendant")
    }
  }

  const close = () => {
    listbox.hidden = true
    input.setAttribute("aria-expanded", "false")
    setActive(-1)
  }

  const open = () => {
    if (options.length === 0) return
    listbox.hidden = false
    input.setAttribute("aria-expanded", "true")
  }

  const choose = (option) => {
    if (fill === null) {
      window.location.assign(recordBase + option.dataset.id)
      return
    }
    fill.value = option.dataset.id
    input.value = option.dataset.nom
    close()
    status.textContent = `${option.dataset.nom || "(sans nom)"} choisi : identifiant ${option.dataset.id}.`
  }

  const show = (resultats) => {
    listbox.replaceChildren()
    options = resultats.map((r, i) => {
      const li = document.createElement("li")
      li.id = `suggestion-${i}`
      li.setAttribute("role", "option")
      li.setAttribute("aria-selected", "false")
      li.dataset.id = r.id
      li.dataset.nom = r.nom || ""
      li.append(document.createTextNode(r.nom || "(sans nom)"))
      const details = [r.race, r.sexe, r.annee_naissance].filter((v) => v !== undefined && v !== "").join(", ")
      if (details !== "") {
        const span = document.createElement("span")
        span.className = "muted"
        span.textContent = ` — ${details}`
        li.append(span)
      }
      li.addEventListener("mousedown", (event) => event.preventDefault())
      li.addEventListener("click", () => choose(li))
      listbox.append(li)
      return li
    })
    active = -1
    input.removeAttribute("aria-activedescendant")
    status.textContent = options.length === 0 ? "Aucune suggestion." : `${options.length} suggestions.`
    if (options.length === 0) close()
    else open()
  }

  const fetchSuggestions = (q) => {
    if (controller !== undefined) controller.abort()
    controller = new AbortController()
    const params = new URLSearchParams({ q, limite: "8" })
    if (sexe !== undefined) params.set("sexe", sexe)
    fetch(`/v1/search?${params}`, { signal: controller.signal, headers: { accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : { q, resultats: [] }))
      .then((body) => {
        // A late answer for an older query is ignored.
        if (body.q === input.value.trim()) show(body.resultats)
      })
      .catch((error) => {
        if (error.name !== "AbortError") status.textContent = "Suggestions indisponibles."
      })
  }

  input.addEventListener("input", () => {
    clearTimeout(timer)
    const q = input.value.trim()
    if (q === "") {
      if (controller !== undefined) controller.abort()
      options = []
      listbox.replaceChildren()
      close()
      return
    }
    timer = setTimeout(() => fetchSuggestions(q), 150)
  })

  input.addEventListener("keydown", (event) => {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault()
        if (listbox.hidden) open()
        else if (options.length > 0) setActive((active + 1) % options.length)
        break
      case "ArrowUp":
        event.preventDefault()
        if (listbox.hidden) open()
        else if (options.length > 0) setActive(active <= 0 ? options.length - 1 : active - 1)
        break
      case "Enter":
        if (!listbox.hidden && active >= 0) {
          event.preventDefault()
          choose(options[active])
        }
        break
      case "Escape":
        if (!listbox.hidden) {
          event.preventDefault()
          close()
        } else if (input.value !== "") {
          event.preventDefault()
          input.value = ""
        }
        break
      default:
        break
    }
  })

  input.addEventListener("blur", close)
})()
