"""The court, the things on the 堂 and the people below: 洗 (南北以堂深, 東西當東榮), 中, 楅, 磬, 尊, 豐, mats,
the 門 and every standing place (位) of the rite."""
from __future__ import annotations

from .builder import FILE, PlaceBuilder, fmt
from .hall import Hall


def court(b: PlaceBuilder, h: Hall, rng: dict[str, float]) -> None:
    r = b.r
    # 洗 (經 §2): 阼階東南，南北以堂深，東西當東榮
    xi_y, xi_x = -h.tang_depth, h.rong_x
    b.put("court.xi", "洗", (xi_x, xi_y, 0), size=(3, 3, 2), source="經 §2 設洗于阼階東南南北以堂深東西當東榮",
          commentary="鄭 §2 榮屋翼也; 李如圭 堂深謂從堂廉北至房室之壁", status="derived",
          derivation=f"south of the 堂廉 by 堂深 {fmt(h.tang_depth)} 尺 → y = {fmt(xi_y)}; on the 東榮 line x = {fmt(xi_x)} 尺")
    b.put("court.water", "水", (xi_x + 3, xi_y, 0), source="經 §2 水在洗東", status="assumed",
          derivation="east of the 洗; 3 尺 (not stated)")
    b.put("court.xi_basket", "篚 (洗西)", (xi_x - 3, xi_y, 0), facing="南面", source="經 §2 篚在洗西南肆",
          status="assumed", derivation="west of the 洗; 3 尺 (not stated); 南肆 laid N–S, head north")
    qing = (xi_x + 6, xi_y + 8, 0)
    b.put("court.qing", "磬 (縣)", qing, size=(5, 1, 4), facing="西面", source="經 §2 縣于洗東北西面",
          commentary="鄭 §2 此縣謂磬也縣於東方辟射位也", status="assumed",
          derivation=f"north-east of the 洗: 6 尺 east, 8 尺 north (no distance stated) → ({fmt(qing[0])}, {fmt(qing[1])})")
    # 記17 三笙一和而成聲 (鄭 凡四人): four stand east of the 磬, two by two, 3 尺 apart; the front pair (#0, #1)
    # right behind the 磬, the second (#2, #3) behind them (how they stand is not stated)
    sheng = [(qing[0] + 3 + FILE * (k // 2), qing[1] - 1.5 + FILE * (k % 2), 0) for k in range(4)]
    b.put("court.sheng", "笙 (縣中)", (qing[0] + 3, qing[1], 0), facing="西面", source="經 §11 笙入立于縣中西面",
          commentary="鄭 §11 縣中磬東立西面; 記17 三笙一和而成聲 (鄭 凡四人)", status="derived",
          derivation="3 尺 east of the 磬 (鄭 磬東); the four (記17) two by two, 3 尺 apart (assumed)",
          slots=sheng)

    # the 楅 in 中庭, on the 洗's line (經 §22, 記39)
    bi_len = b.measure("長如笴")
    bi_w = b.measure("博三寸")
    bi_t = b.measure("厚寸有半")
    b.put("court.bi", "楅", (0, xi_y, 0), size=(bi_len.chi, bi_w.chi, bi_t.chi), facing="南面",
          source="經 §22 乃設楅于中庭南當洗東肆; 記38 楅長如笴博三寸厚寸有半; 記39 南北當洗",
          commentary="鄭 §22 東肆統於賓; 鄭 記38 兩端為龍首中央為蛇身相交", status="derived",
          derivation=f"x = 0 (中庭), y = 洗's line {fmt(xi_y)}; length {bi_len.derivation}; width {bi_w.derivation}; "
                     f"thickness {bi_t.derivation}")
    # 6 尺 south: clear of the 司馬 and the 弟子 who kneel at the 楅's south (§22 北面立于所設楅之南, 坐委)
    b.put("court.zhi_marker", "觶 (司正)", (0, xi_y - 6, 0), source="經 §13 司正…中庭北面坐奠觶",
          commentary="鄭 §13 奠觶表其位也", status="assumed",
          derivation=f"中庭: x = 0; N–S not stated — two 笴 (6 尺) south of the 楅's line, clear of those who kneel "
                     f"at the 楅's south, y = {fmt(xi_y - 6)}")
    b.put("pos.sizheng", "司正位 (觶南)", (0, xi_y - 8, 0), facing="北面", source="經 §13 北面立于觶南",
          status="derived", derivation="2 尺 south of his 觶, facing north")

    # 中 (鹿中) and counters (經 §26, 記44, 記62)
    zhong_xy = (-h.xu_x, xi_y)
    b.put("court.zhong", "中 (鹿中)", (*zhong_xy, 0), size=(1.2, 2.5, 1.5), facing="東面",
          source="經 §26 釋獲者坐設中南當楅西當西序東面; 記44 鹿中髤前足跪鑿背容八筭",
          commentary="賈 南當楅南北節西當西序東西節", status="derived",
          derivation=f"N–S on the 楅's line y = {fmt(xi_y)}; E–W on the 西序 line x = {fmt(-h.xu_x)} 尺; size assumed")
    suan = b.measure("長尺有握")
    b.put("court.counters_spare", "筭 (中西)", (zhong_xy[0] - 2.5, xi_y, 0), size=(0.3, suan.chi, 0.1),
          source="經 §26 興執而俟…橫委其餘于中西南末; 記62 箭籌八十長尺有握握素", commentary="張爾岐 算長尺四寸",
          status="derived", derivation=f"west of the 中; counter {suan.derivation}; 80 counters", count=80)
    for pid, name, dy, who in (("court.counters_right", "右獲", -1.5, "上射"), ("court.counters_left", "左獲", 1.5, "下射")):
        b.put(pid, name, (zhong_xy[0] - 1.5, xi_y + dy, 0), source="經 §27 上射於右下射於左",
              commentary="張爾岐 中首東鄉其南為右其北為左", status="derived",
              derivation=f"{who}'s hits: {'south (right)' if dy < 0 else 'north (left)'} of the 釋獲者, "
                         f"{fmt(abs(dy))} 尺 from the 中's line")
    b.put("pos.shihuozhe", "釋獲者位 (中西)", (zhong_xy[0] - 3.5, xi_y, 0), facing="東面", source="經 §32 釋獲者東面于中西坐",
          status="derived", derivation="3.5 尺 west of the 中, sitting facing east")
    b.put("pos.shihuozhe_toasted", "釋獲者 (少南)", (zhong_xy[0] - 3.5, xi_y - 4, 0), facing="北面",
          source="經 §35 獻釋獲者于其位少南", commentary="鄭 §35 不當其位辟中", status="assumed",
          derivation="4 尺 south of his place (少南, not stated)")
    b.put("pos.sishe_counting", "中南 (司射)", (zhong_xy[0], xi_y - 3, 0), facing="北面",
          source="經 §32 進由中東立于中南北面視筭", status="derived", derivation="3 尺 south of the 中, facing north")

    # the 司射, 三耦, 司馬 and the shooters' waiting places (經 §19, §21, §25)
    sishe = (zhong_xy[0] - 4, xi_y - 4)
    b.put("pos.sishe", "司射位", (*sishe, 0), facing="東面", source="經 §19 司射先立于所設中之西南東面",
          status="derived", derivation=f"south-west of the 中: 4 尺 west, 4 尺 south → ({fmt(sishe[0])}, {fmt(sishe[1])})")
    # 6 尺 west: the way to and from 堂西 goes between the file and the 司馬 (記30 出入于司馬之南); its head 2 尺
    # south of the 司馬 (6 尺 south of the 司射): §24 進立于司馬之西南 (賈 今立於司馬之西南亦東面北上)
    pairs = [(sishe[0] - 6, sishe[1] - 8 - FILE * k, 0) for k in range(6)]
    b.put("pos.shooters", "射位 (三耦)", pairs[0], facing="東面", source="經 §19 由司射之西立于其西南東面北上",
          commentary="§24 進立于司馬之西南 (賈 今立於司馬之西南亦東面北上)",
          status="derived", slots=pairs,
          derivation="south-west of the 司射 (6 尺 west, 8 尺 south) and of the 司馬 (its head 2 尺 south of him), "
                     "a N–S file facing east, north end senior; 3 尺 apart (distances assumed: 6 尺 leaves a way "
                     "between the file and the 司馬, by which 記30 sends everyone going to or from 堂西)")
    others = [(sishe[0] - 6, pairs[-1][1] - FILE * (k + 1), 0) for k in range(6)]
    b.put("pos.other_shooters", "眾賓射位", others[0], facing="東面", source="經 §25 繼三耦之南而立東面北上",
          status="derived", slots=others, derivation="continuing the 三耦's file to the south")
    # the 眾賓 who have no mat (堂下眾賓, 賈 §8 還據堂下無席者): once offered they stand at their own place, where
    # their 薦 are laid (鄭 §8 薦於其位) — the text does not say where. 記20 立者東面北上 (賈: 與堂下眾賓齒東面北上
    # 而立) gives the file; we put it on the west side south of the shooters' files, so that it is out of the arrows'
    # way (their 初位, 門內, is behind the 侯 in a 330-尺 court) and out of the traffic between the 西階, the 射位 and
    # 堂西, and so that their way to 堂西 passes south of the 司馬 as §23 says (眾賓將與射者皆降由司馬之南適堂西)
    tx = -h.xu_x - 1
    tangxia = [(tx, others[-1][1] - 3 * FILE - FILE * k, 0) for k in range(6)]
    b.put("pos.zhongbin_tangxia", "堂下眾賓位", tangxia[0], facing="東面",
          source="記20 立者東面北上; 經 §8 眾賓辯有脯醢", commentary="鄭 §8 薦於其位; 賈 §8 還據堂下無席者; 賈 記20 與堂下眾賓齒東面北上而立",
          status="assumed", slots=tangxia,
          derivation=f"a N–S file facing east, north end senior, on x = {fmt(tx)} (1 尺 west of the 西序 line, as "
                     f"pos.zhongbin_below), from y = {fmt(tangxia[0][1])}: 9 尺 south of the last 射位 (not stated)")
    b.put("pos.sima", "司馬位", (sishe[0], sishe[1] - 6, 0), facing="東面",
          source="經 §21 反位立于司射之南; 記34 司射在司馬之北", status="derived",
          derivation="6 尺 south of the 司射 (distance assumed: clear of the pairs stepping out of their file)")
    b.put("pos.sima_at_bi", "楅南 (司馬)", (0, xi_y - 2, 0), facing="北面", source="經 §22 當楅南北面坐",
          status="derived", derivation="2 尺 south of the 楅, facing north")
    b.put("pos.bi_north", "楅北", (0, xi_y + 2, 0), source="經 §24 進坐…(上射東面下射西面) at the 楅",
          status="derived", derivation="2 尺 north of the 楅 (where the pairs take arrows)")
    # the 三耦 in front, the 眾賓 shooters (繼三耦而立) in a second row behind them
    wait = [(-(h.platform_x + 3 + FILE * (k % 6)), h.y_mei + FILE * (k // 6), 0) for k in range(12)]
    b.put("pos.sanou_waiting", "三耦 (堂西)", wait[0], facing="南面", source="經 §14 三耦俟于堂西南面東上",
          status="derived", slots=wait,
          derivation=f"堂西: an E–W row facing south, east end senior, from x = {fmt(wait[0][0])}, 3 尺 apart; slots 6–11 a second row (assumed)")

    # musicians after moving (經 §18)
    gan3 = b.measure("三笴")
    mx = h.stairs_x + h.stair_width / 2 + 4
    gong_slots = [(mx, -gan3.chi - FILE * k, 0) for k in range(4)]
    b.put("court.musicians", "工 (堂前三笴)", gong_slots[0], facing="西面",
          source="經 §18 阼階下之東南堂前三笴西面北上坐", commentary="賈/張爾岐 三笴者去堂九尺也",
          status="derived", slots=gong_slots,
          derivation=f"{gan3.derivation} south of the 堂; SE of the foot of the 阼階: x = {fmt(mx)}; a N–S file facing west, north end senior")
    b.put("pos.yuezheng_below", "樂正 (工南)", (mx, gong_slots[-1][1] - 3, 0), facing="北面",
          source="經 §18 樂正北面立于其南", status="derived", derivation="3 尺 south of the last 工")

    # gate and the entry places (經 §4)
    gate_y = rng["hou_y"] - r.behind_hou_chi
    b.put("hall.gate", "門", (0, gate_y, 0), size=(r.gate_width_chi, 2, 12), facing="北面",
          source="經 §4 及門主人一相出迎于門外", commentary="李如圭 庠序則惟有一門; 堂下至門謂之庭",
          status="assumed", derivation=f"{fmt(r.behind_hou_chi)} 尺 south of the 侯 (y = {fmt(gate_y)}); width {fmt(r.gate_width_chi)} 尺")
    b.put("hall.outside_gate", "門外", (0, gate_y - 8, 0), source="經 §4 出迎于門外", status="derived",
          derivation="8 尺 south of the 門")
    gw = r.gate_width_chi / 2
    # 門左 puts the file west of the gate; how far west the text does not say. Behind the 侯 the arrows that
    # miss fly on, so the file stands clear of their way: west of the 侯's half width plus 8 尺.
    hou_half = rng["hou_half_width"]
    lx = -max(gw + 4, hou_half + 8)
    left = [(lx, gate_y + 8 + FILE * k, 0) for k in range(6)][::-1]
    b.put("hall.gate_left", "門左", left[0], facing="東面", source="經 §4 眾賓皆入門左東面北上",
          commentary="鄭 §10 初位門內東面", status="assumed", slots=left,
          derivation=f"inside the gate on the west (left of one entering northward), x = {fmt(lx)}: clear of the "
                     f"arrows' way behind the 侯 (half width {fmt(hou_half)} 尺 + 8); a N–S file facing east, "
                     "north end senior")
    b.put("hall.gate_right", "門右", (gw + 4, gate_y + 8, 0), facing="西面", source="經 §4 主人以賓揖先入",
          commentary="鄭 §4 先入入門右西面", status="derived", derivation="inside the gate on the east, facing west")
    cw = r.court_width_chi
    b.put("hall.court", "庭", (0, gate_y / 2, 0), size=(cw, -gate_y, 0), source="經 §13 中庭; 記61 侯道五十弓",
          commentary="李如圭 堂下至門謂之庭; 鄉射之侯去堂三十丈則庭之深可見", status="assumed",
          derivation=f"from the 堂廉 (y = 0) to the 門 (y = {fmt(gate_y)}); width {fmt(cw)} 尺")


def tang_things(b: PlaceBuilder, h: Hall, rng: dict[str, float]) -> None:
    r = b.r
    fl = h.height
    mat_y = (h.y_dong - 2.5) if h.has_shi else (h.y_dong + h.house_depth) / 2
    mat_why = ("庠: before the 室 wall, 當戶牖之間" if h.has_shi else
               f"序: no 戶牖 (賈 亦當戶牖之處); set north of the 物 (y = {fmt(rng['wu_y'])}) at the back 楣 line")
    mat = 6.0
    b.put("mat.bin", "賓席", (-mat / 2, mat_y, fl), size=(mat, 3, 0.1), facing="南面", source="經 §2 乃席賓南面東上",
          commentary="鄭 §2 不言於戶牖之間者此射於序", status="assumed",
          derivation=f"{mat_why}: y = {fmt(mat_y)}; mat {fmt(mat)} × 3 尺 (記04 蒲筵緇布純: size not stated)")
    for k in range(3):
        b.put(f"mat.zhongbin_{k + 1}", "眾賓席", (-mat / 2 - mat * (k + 1), mat_y, fl), size=(mat, 3, 0.1), facing="南面",
              source="經 §2 眾賓之席繼而西", status="derived",
              derivation=f"the {k + 1}th mat west of the 賓席: x = {fmt(-mat / 2 - mat * (k + 1))}")
    zun_x = 3.0
    b.put("tang.zun", "尊 (兩壺斯禁)", (zun_x, mat_y, fl), size=(4, 1.5, 1.5), facing="北面",
          source="經 §2 尊於賓席之東兩壺斯禁左玄酒皆加勺", commentary="鄭 §2 斯禁禁切地無足者也設尊者北面西曰左",
          status="derived", derivation="east of the 賓席, on its line; 玄酒 in the west jar",
          jars=[(zun_x - 1, mat_y, fl), (zun_x + 1, mat_y, fl)])
    b.put("tang.zun_basket", "篚 (上篚)", (zun_x, mat_y - 2.5, fl), facing="東面", source="經 §2 篚在其南東肆",
          status="derived", derivation="2.5 尺 south of the 尊")
    b.put("mat.dafu", "大夫席 (尊東)", (zun_x + 2 + mat / 2 + 1, mat_y, fl), size=(mat, 3, 0.2), facing="南面",
          source="經 §10 席於尊東", commentary="鄭 §10 明與賓夾尊也不言東上統於尊也; 大夫再重席", status="derived",
          derivation="east of the 尊 (double mat)", present=r.dafu_present)
    b.put("mat.zhuren", "主人席", (h.stairs_x + 3, h.y_mei, fl), size=(3, mat, 0.1), facing="西面",
          source="經 §2 席主人於阼階上西面", status="assumed",
          derivation=f"above the 阼階, 3 尺 east of its line and on the 楣 line y = {fmt(h.y_mei)} (not stated)")
    # five mats (眾賓 4–8), a mat's length apart, closer where the 堂 is shallower (a 庠, with its 室 and 房
    # behind) so that the last is still 5 尺 inside the 堂廉, clear of the 西序端 where the 司正 stands
    step = min(mat, (mat_y - 4 - 5) / 4)
    for k in range(5):
        b.put(f"mat.west_xu_{k + 1}", "西序之席", (-h.xu_x + 2, mat_y - 4 - step * k, fl), size=(3, step, 0.1),
              facing="東面", source="記05 西序之席北上", commentary="鄭 眾賓統於賓", status="derived",
              derivation=f"along the 西序, facing east, the north end senior, {fmt(step)} 尺 apart (the spacing ours)")
    gong_x = -h.stairs_x + h.stair_width / 2 + 4
    b.put("mat.gong", "工席", (gong_x, 3, fl), size=(10, 3, 0.1), facing="北面", source="經 §11 席工于西階上少東",
          commentary="鄭 §11 言少東者明樂正西側階不欲大東辟射位", status="assumed",
          derivation=f"on the 堂 just east of the top of the 西階: x = {fmt(gong_x)}, 3 尺 in from the 堂廉",
          slots=[(gong_x - 1.5 * FILE + FILE * k, 3, fl) for k in range(4)])
    b.put("pos.yuezheng_above", "樂正 (工西)", (-h.stairs_x, 3, fl), facing="北面", source="經 §11 樂正先升北面立于其西",
          status="derived", derivation="west of the 工席, at the head of the 西階")
    b.put("tang.feng", "豐", (-h.ying_x - 3, h.y_mei, fl), source="經 §33 弟子奉豐升設于西楹之西",
          commentary="鄭 §33 豐形蓋似豆而卑", status="derived", derivation="3 尺 west of the 西楹")
    b.put("tang.bows_guest", "弓 (賓與大夫)", (-h.xu_x + 0.8, h.y_dong, fl), source="經 §15 賓與大夫之弓倚于西序矢在弓下北括",
          status="derived", derivation="leaning on the 西序, arrows below them, nocks north")
    b.put("court.bows_common", "眾弓", (-h.platform_x - 0.5, h.y_mei, 0), source="經 §15 眾弓倚于堂西矢在其上",
          commentary="鄭 §15 上，堂西廉", status="derived", derivation="leaning on the 堂's west edge, arrows on top")
    b.put("tang.bows_host", "弓矢 (主人)", (h.xu_x + 2, h.y_dong, fl), source="經 §15 主人之弓矢在東序東",
          status="derived", derivation="east of the 東序 (on the 東堂)")
    b.put("court.pu", "扑", (-h.stairs_x - h.stair_width / 2 - 2, -0.5, 0), size=(0.3, 3, 0.3),
          source="記23 司射之弓矢與扑倚于西階之西; 記63 楚扑長如笴刊本尺", commentary="鄭 記63 刊其可持處",
          status="derived", derivation=f"west of the 西階, leaning on the 堂; {b.measure('長如笴').derivation}")
    ren3 = b.measure("三仞")
    xun2 = b.measure("二尋")
    b.put("range.jing", "旌", (0, rng["hou_y"] + 0.5, 0), size=(0.2, 0.2, ren3.chi),
          source="記32 杠長三仞以鴻脰韜上二尋; 經 §17 倚旌于侯中", commentary="鄭 記32 杠橦也七尺曰仞八尺曰尋",
          status="stated", derivation=f"pole {ren3.derivation}; sheath {xun2.derivation}; leant on the 侯中",
          sheath_chi=xun2.chi)


def people_below(b: PlaceBuilder, h: Hall) -> None:
    r = b.r
    cw = r.court_width_chi / 2
    att = [(cw - 8, -20 - FILE * k, 0) for k in range(10)]
    b.put("pos.attendants", "有司位", att[0], facing="西面", source="經 §19 有司左執弣右執弦而授弓 (the host's officers)",
          status="assumed", slots=att,
          derivation=f"no text places them before they act: a N–S file facing west in the east of the 庭, x = {fmt(att[0][0])}")
    dz = [(-(h.platform_x + 8), -8 - FILE * k, 0) for k in range(6)]
    b.put("pos.dizi", "弟子位", dz[0], facing="東面", source="經 §15 命弟子納射器",
          commentary="鄭 §15 弟子賓黨之少者也", status="assumed", slots=dz,
          derivation=f"the 賓's juniors wait by the 堂西, a N–S file facing east from x = {fmt(dz[0][0])} (not stated)")
    b.put("pos.bin_below", "賓位 (西階西當西序)", (-h.xu_x, -3, 0), facing="東面", source="經 §8 賓降東面立于西階西當西序",
          commentary="鄭 §5 (賓反位) 西階西當西序", status="derived",
          derivation=f"on the 西序 line x = {fmt(-h.xu_x)}, 3 尺 south of the 堂廉")
    b.put("pos.dafu_below", "大夫位 (賓南)", (-h.xu_x, -6, 0), facing="東面", source="經 §10 大夫降立于賓南",
          status="derived", derivation="3 尺 south of the 賓")
    zb = [(-h.xu_x - 1, -9 - FILE * k, 0) for k in range(8)]
    b.put("pos.zhongbin_below", "眾賓位 (大夫之南)", zb[0], facing="東面", source="經 §47 賓南眾賓皆降立于大夫之南少退北上",
          commentary="記20 立者東面北上 (the 眾賓 who have no mat)", status="derived", slots=zb,
          derivation="on the 西序 line south of the 大夫, 1 尺 back (少退), a N–S file facing east, north end senior")
    b.put("pos.zhuren_below", "主人位 (阼階東當東序)", (h.xu_x, -3, 0), facing="西面",
          source="經 §6 主人降", commentary="鄭 §6 降立阼階東西面當東序", status="derived",
          derivation=f"on the 東序 line x = {fmt(h.xu_x)}, 3 尺 south of the 堂廉 (the mirror of the 賓位)")
