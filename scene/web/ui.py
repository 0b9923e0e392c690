"""The app's Vuetify 3 layout: stage navigator, 3D view, timeline, text / inspector / readings panels.

Only layout here. Every control binds per-tab state or calls ``window.xsl``
(``assets/web/app.js``), which drives the player; nothing here computes.
"""
from __future__ import annotations

from trame.ui.vuetify3 import VAppLayout
from trame.widgets import html
from trame.widgets import vuetify3 as v

#: the named views, in the order the keys 1–6 choose them (guest is on the menu only)
VIEW_ORDER = ("auto", "overview", "hall", "range", "plan", "archer", "target", "guest")
SPEEDS = (0.5, 1, 2, 4, 8)
ROOFS = ("cutaway", "solid", "ghost", "none")
ROOF_TITLES = {"cutaway": "剖", "solid": "實", "ghost": "透", "none": "無"}
QUALITIES = (("auto", "自動 auto"), ("fast", "快 fast"), ("high", "高 high"))


def _btn(icon: str, click: str, title: str, **kw):
    return v.VBtn(icon=icon, click=click, title=title, variant="text", density="comfortable", **kw)


def _app_bar() -> None:
    with v.VAppBar(v_if="!classroom", density="compact", color="#3b2f2a", theme="dark"):
        v.VAppBarNavIcon(click="window.xsl.toggleNav()", title="stages")
        v.VToolbarTitle("{{ chapter_title }} <span class='xsl-sub'>{{ chapter_sub }}</span>",
                        classes="xsl-title", style="flex: 0 1 auto; min-width: 280px")
        # the chapter switch (issue 43): one button a chapter, the one playing marked; Tab reaches it, Enter
        # opens the chapter at its start (the reading kept)
        with html.Div(id="xsl-chapter", role="group", aria_label="章 chapter", v_if="xsl_chapters.length > 1",
                      classes="xsl-chapter"):
            v.VBtn("{{ c.title }}", v_for="c in xsl_chapters", key="c.id", click="window.xsl.setChapter(c.id)",
                   id=("'xsl-chapter-' + c.id",), title=("c.title + ' · ' + c.title_en",),
                   variant=("c.id === chapter_id ? 'tonal' : 'text'",), size="small",
                   aria_pressed=("String(c.id === chapter_id)",))
        html.Div("§{{ stage_n }} {{ stage_title }}", id="xsl-stage-title", classes="xsl-stage-title")
        v.VSpacer()
        _btn("mdi-projector-screen", "window.xsl.setClassroom(true)", "classroom mode (C)", id="xsl-classroom")
        _btn("mdi-link-variant", "window.xsl.copyLink()", "copy a link to this moment", id="xsl-copy")
        _btn("mdi-broadcast", "window.xsl.present()", "present: tabs opened with ?follow=1 follow this one",
             id="xsl-present")
        with v.VMenu():
            with v.Template(v_slot_activator="{ props }"):
                v.VBtn(icon="mdi-image-move", v_bind="props", title="export", variant="text", id="xsl-export-menu")
            with v.VList(density="compact"):
                v.VListItem(title="PNG 1080p", click="window.xsl.exportPng('1080p')", id="xsl-export-1080p")
                v.VListItem(title="PNG 4K", click="window.xsl.exportPng('4K')", id="xsl-export-4k")
                v.VListItem(title="all stills (zip, 1080p)", click="window.xsl.exportZip('1080p')",
                            id="xsl-export-zip")


def _navigator() -> None:
    with v.VNavigationDrawer(v_if="!classroom", v_model="nav_open", width=250, id="xsl-nav"):
        with v.VList(density="compact", nav=True, classes="xsl-nav"):
            with html.Div(v_for="g in nav", key="g.phase"):
                v.VListSubheader("{{ g.title }}", classes="xsl-phase")
                with v.VListItem(v_for="s in g.items", key="s.n", active=("s.n === stage_n",),
                                 click="window.xsl.gotoStage(s.n)", id=("'nav-' + s.n",),
                                 color="deep-orange", rounded="sm", classes="xsl-nav-item"):
                    html.Span("§{{ s.n }}", classes="xsl-nav-n")
                    html.Span("{{ s.title }}")
                    v.VChip("第{{ s.round }}番", v_if="s.round", size="x-small", color="red-darken-2",
                            classes="ml-1")


def _view_tools() -> None:
    """Over the 3D view, top left, in one row: the named cameras, labels, dimensions, roof."""
    with html.Div(v_if="!classroom", classes="xsl-tools", id="xsl-tools"):
        with v.VBtnToggle(v_model="view", mandatory=True, density="compact", variant="elevated", divided=True,
                          id="xsl-views", color="brown-darken-2"):
            v.VBtn("{{ it.title }}", v_for="(it, i) in xsl_views", key="it.value", value=("it.value",),
                   size="small", classes="text-none px-2", id=("'view-' + it.value",),
                   v_show="it.value === 'auto' || !pack_views.length || pack_views.includes(it.value)",
                   title=("it.value + (i < 6 ? ' (key ' + (i + 1) + ')' : '')",))
        with html.Div(classes="xsl-toggles"):
            v.VCheckbox(v_model="labels", label="標籤", title="labels (L)", hide_details=True, density="compact",
                        id="xsl-labels")
            v.VCheckbox(v_model="dims", label="尺寸", title="dimension lines", hide_details=True,
                        density="compact", id="xsl-dims")
            # Vuetify selects, not native ones: an open native drop-down takes the clicker's keys (issue 42)
            html.Label("屋頂", **{"for": "xsl-roof"}, classes="xsl-dim ml-1", title="roof")
            v.VSelect(v_model="roof", items=("roof_items", [{"title": t, "value": k} for k, t in ROOF_TITLES.items()]),
                      hide_details=True, density="compact", variant="plain", style="max-width: 84px",
                      id="xsl-roof", title="roof", classes="xsl-select",
                      menu=("roof_menu",), update_menu="roof_menu = $event")
            # per browser (localStorage), not shared: app.js keeps quality_pick and reloads at the same moment
            html.Label("畫質", **{"for": "xsl-quality"}, classes="xsl-dim ml-2", title="quality tier")
            v.VSelect(v_model="quality_pick", items=("quality_items", [{"title": t, "value": k} for k, t in QUALITIES]),
                      hide_details=True, density="compact", variant="plain", style="max-width: 96px",
                      id="xsl-quality", classes="xsl-select", menu=("quality_menu",),
                      update_menu="quality_menu = $event",
                      title="quality tier, remembered in this browser: auto (fast on a software GL, high on a GPU), "
                            "fast, high — a change reloads the page at this moment")
            # the tier's line on demand (issue 42: it lay across the picture): ⓘ shows it under the transport
            v.VBtn("ⓘ", click="quality_info_open = !quality_info_open", size="x-small", variant="text",
                   id="xsl-quality-why", title="the quality tier in use, and why",
                   aria_pressed=("quality_info_open ? 'true' : 'false'",))
        # presenting / following: in the row of tools (a badge over the view covered its buttons)
        _live_badge("xsl-live")


def _live_badge(classes: str) -> None:
    with html.Div(v_if="live_role", classes=classes, id="xsl-live", role="status"):
        html.Span("{{ live_role === 'present' ? '● presenting: tabs opened with ?follow=1 follow this one'"
                  " : '● following the presenter' }}")
        v.VBtn("explore on my own", v_if="live_role === 'follow'", size="x-small", variant="tonal",
               click="window.xsl.explore()", classes="ml-2", id="xsl-explore")


def _view() -> None:
    with v.VMain(classes="xsl-main"), html.Div(classes="xsl-stage"):
        html.Div(id="xsl-view", classes="xsl-view")
        _view_tools()
        with html.Div(v_if="classroom", classes="xsl-class-caption", id="xsl-class-caption"):
            html.Div("§{{ stage_n }} {{ stage_title }}", classes="xsl-class-title")
            # the live text of the view in classroom mode (the player's own phrase band is hidden there)
            html.Div("{{ step_phrase }}", classes="xsl-class-phrase", id="xsl-class-phrase", role="status",
                     aria_live="polite")
        _btn("mdi-close", "window.xsl.setClassroom(false)", "leave classroom mode (Esc)", v_if="classroom",
             classes="xsl-class-exit", id="xsl-class-exit")
        v.VAlert("{{ message }}", v_if="message", type="warning", density="compact", closable=True,
                 click_close="message = ''", classes="xsl-message", id="xsl-message")
        # a first start: no spinner (an animation repaints all the while, taking the CPU the build needs)
        html.Div("{{ building }}", v_if="building && !busy", classes="xsl-busy", id="xsl-building")
        with html.Div(v_if="busy", classes="xsl-busy", id="xsl-busy"):
            v.VProgressCircular(indeterminate=True, size=22, width=3, classes="mr-2")
            html.Span("{{ busy }}")
        html.Div("{{ fps }} fps", v_if="!classroom && playing", classes="xsl-fps", id="xsl-fps")
        # classroom mode has no row of tools: the badge goes top left (the exit button is top right)
        with html.Template(v_if="classroom"):
            _live_badge("xsl-live xsl-live-class")


def _timeline() -> None:
    """The scrubber over the whole rite (a mark per stage, the rounds in red), and the transport under it."""
    with v.VFooter(v_if="!classroom", app=True, height=("quality_info_open ? 104 : 84",), classes="xsl-footer",
                   id="xsl-timeline"):
        with html.Div(classes="xsl-scrub"):
            with html.Div(classes="xsl-marks"):
                html.Div(v_for="m in marks", key="m.n", classes="xsl-mark",
                         style=("{left: m.x + '%', background: m.round ? '#b71c1c' : '#8d6e63'}",),
                         title=("'§' + m.n + ' ' + m.title",), click="window.xsl.gotoStage(m.n)")
            v.VSlider(model_value=("t",), min=0, max=("duration",), step=0.1, hide_details=True,
                      density="compact", color="deep-orange", track_size=3, thumb_size=12, name="time 時",
                      update_modelValue="window.xsl.seek($event)", id="xsl-scrubber")
        with html.Div(classes="xsl-transport"):
            _btn("mdi-skip-previous", "window.xsl.prevStage()", "previous stage (PageUp)", id="xsl-prev-stage")
            _btn("mdi-step-backward", "window.xsl.prevStep()", "previous step (←)", id="xsl-prev-step")
            v.VBtn(icon=("playing ? 'mdi-pause' : 'mdi-play'",), click="window.xsl.togglePlay()",
                   title="play / pause (Space)", color="deep-orange", density="compact", id="xsl-play")
            _btn("mdi-step-forward", "window.xsl.nextStep()", "next step (→)", id="xsl-next-step")
            _btn("mdi-skip-next", "window.xsl.nextStage()", "next stage (PageDown)", id="xsl-next-stage")
            html.Label("速", **{"for": "xsl-speed"}, classes="xsl-dim ml-2", title="speed")
            v.VSelect(v_model="speed", items=("speeds", [{"title": f"{s}×", "value": s} for s in SPEEDS]),
                      hide_details=True, density="compact", variant="plain", style="max-width: 80px",
                      id="xsl-speed", title="speed", menu=("speed_menu",), update_menu="speed_menu = $event")
            html.Div("{{ step_phrase }}", classes="xsl-phrase", id="xsl-phrase")
            html.Div("{{ t_label }}", classes="xsl-time", id="xsl-time")
        html.Div(v_show="quality_info_open", id="xsl-quality-info", classes="xsl-quality-info")


def _text_panel() -> None:
    with html.Div(v_if="text", classes="xsl-text", id="xsl-text"):
        with html.Div(classes="d-flex align-center mb-1"):
            html.Div("§{{ text.n }} {{ text.title }}", classes="xsl-text-title")
            v.VSpacer()
            with v.VBtnToggle(v_model="lang", mandatory=True, density="compact", variant="outlined",
                              id="xsl-lang"):
                v.VBtn("繁", value="trad", size="small", id="xsl-lang-trad")
                v.VBtn("简", value="simp", size="small", id="xsl-lang-simp")
        with html.Div(classes="xsl-jing", id="xsl-jing"):
            html.Span("{{ text.pre }}")
            html.Mark("{{ text.hit }}", classes="xsl-hit", id="xsl-hit")
            html.Span("{{ text.post }}")
            # 考: the scholar's report of this section of the tab's chapter (another chapter's in its subfolder),
            # at the clause of the phrase (its offset: #p<n>)
            html.A("考", href=("`xslreview/${chapter_id === 'xiangshe' ? '' : chapter_id + '/'}${text.n}.html"
                               "#p${text.hit ? text.pre.length : ''}`",), target="_blank",
                   rel="noopener", classes="xsl-review-link ml-1", id="xsl-review-link",
                   title="the scholarly report of this clause (考)")
        v.VSwitch(v_model="show_notes", label="鄭注 Zheng Xuan's notes", hide_details=True, density="compact",
                  color="deep-orange", id="xsl-notes-switch")
        with html.Div(v_if="show_notes", classes="xsl-notes", id="xsl-notes"):
            html.Div("（{{ g.after }}）{{ g.text }}", v_for="(g, i) in text.notes", key="i", classes="xsl-note")
            html.Div("no 鄭注 on this section", v_if="!text.notes.length", classes="xsl-dim")
        with html.Div(v_if="text.seed.length", classes="xsl-seed", id="xsl-seed"):
            html.Div("Seed notes", classes="xsl-dim")
            html.Div("[{{ s.n }}] {{ s.text }}", v_for="s in text.seed", key="s.n", classes="xsl-seed-note")


def _inspector() -> None:
    with html.Div(classes="xsl-inspect", id="xsl-inspect"):
        html.Div("Click a person, an object or a place in the view (or its label).", v_if="!inspect",
                 classes="xsl-dim")
        with html.Div(v_if="inspect"):
            html.Div("{{ inspect.title }}", classes="xsl-text-title", id="xsl-inspect-title")
            with v.VTable(density="compact"):
                with html.Tbody():
                    with html.Tr(v_for="(r, i) in inspect.rows", key="i"):
                        html.Th("{{ r[0] }}", classes="xsl-k")
                        html.Td("{{ r[1] }}", classes="xsl-v")
            v.VBtn("印 print the sheet of this role", v_if="inspect.actor", size="small", variant="tonal",
                   prepend_icon="mdi-printer", click="window.xsl.printSheet()", id="xsl-print-sheet",
                   classes="mt-2")


def _readings() -> None:
    with html.Div(classes="xsl-readings", id="xsl-readings"):
        html.Div("{{ reading_title }}", classes="xsl-dim mb-2", id="xsl-reading-title")
        v.VSelect(v_model="reading_preset", items=("xsl_presets.filter(p => !p.chapter || p.chapter === chapter_id)",),
                  label="preset 讀法", density="compact",
                  hide_details=True, update_modelValue="window.xsl.choosePreset($event)", id="xsl-preset")
        # a chapter's own choices (its manifest's [reading]) only in its own panel
        with html.Div(v_for="f in xsl_fields.filter(x => !x.chapter || x.chapter === chapter_id)", key="f.key",
                      classes="xsl-field"):
            v.VSelect(v_if="f.options", v_model="reading_vals[f.key]", items=("f.options",), label=("f.label",),
                      item_title="title", item_value="value", density="compact", hide_details=True,
                      id=("'rf-' + f.key",), update_modelValue="window.xsl.readingChanged()")
            v.VTextField(v_else=True, v_model_number="reading_vals[f.key]", label=("f.label",), type="number",
                         density="compact", hide_details=True, id=("'rf-' + f.key",),
                         change="window.xsl.readingChanged()")
        with html.Div(classes="d-flex align-center mt-2"):
            v.VSwitch(v_model="ghost", label="ghost of the previous reading", hide_details=True,
                      density="compact", color="deep-orange", id="xsl-ghost")


def _panels() -> None:
    with v.VNavigationDrawer(v_if="!classroom", location="right", width=360, permanent=True, id="xsl-panels"):
        with v.VTabs(v_model="right_tab", density="compact", grow=True, color="deep-orange"):
            v.VTab("經 text", value="text", id="tab-text")
            v.VTab("檢視 inspect", value="inspect", id="tab-inspect")
            v.VTab("讀法 reading", value="reading", id="tab-reading")
        with v.VWindow(v_model="right_tab", classes="pa-3"):
            with v.VWindowItem(value="text"):
                _text_panel()
            with v.VWindowItem(value="inspect"):
                _inspector()
            with v.VWindowItem(value="reading"):
                _readings()


def layout(server) -> VAppLayout:
    with VAppLayout(server, full_height=True) as lay:
        _app_bar()
        _navigator()
        _panels()
        _view()
        _timeline()
    return lay
