// Text pools for the generated content. Real scripts (CJK, Tamil) matter: they change byte sizes,
// slug encoding and JSON escaping, so an all-ASCII corpus would flatter the server.

export type BenchLang = 'en' | 'zh-hans' | 'ms' | 'ta'

export const LANGS: readonly BenchLang[] = ['en', 'zh-hans', 'ms', 'ta']

/** Per-language slug prefix of each kind; English slugs are built from the name instead. */
export const SLUG_PREFIX: Record<Exclude<BenchLang, 'en'>, Record<string, string>> = {
  'zh-hans': { events: '活动', venues: '场地', organizers: '主办方', categories: '类别', tags: '标签' },
  ms: { events: 'acara', venues: 'tempat', organizers: 'penganjur', categories: 'kategori', tags: 'label' },
  ta: { events: 'நிகழ்வு', venues: 'இடம்', organizers: 'ஏற்பாட்டாளர்', categories: 'வகை', tags: 'குறிச்சொல்' },
}

/** A free event's cost per language. */
export const FREE: Record<BenchLang, string> = { en: 'Free', 'zh-hans': '免费', ms: 'Percuma', ta: 'இலவசம்' }

/** A weekly series' title word, and what a moved occurrence's title adds, per language. */
export const SERIES_WORDS: Record<BenchLang, { weekly: string; moved: string }> = {
  en: { weekly: 'Weekly', moved: 'moved' },
  'zh-hans': { weekly: '每周', moved: '改期' },
  ms: { weekly: 'Mingguan', moved: 'dipindahkan' },
  ta: { weekly: 'வாராந்திர', moved: 'மாற்றப்பட்டது' },
}

/** Event title words (adjective + noun) per language. */
export const TITLE_WORDS: Record<BenchLang, { first: string[]; second: string[] }> = {
  en: {
    first: [
      'Harbour Lights',
      'Garden',
      'Night Market',
      'Heritage',
      'Riverside',
      'Community',
      'Rooftop',
      'Jazz',
      'Lantern',
    ],
    second: ['Concert', 'Workshop', 'Festival', 'Walk', 'Talk', 'Fair', 'Screening', 'Recital', 'Meetup'],
  },
  'zh-hans': {
    first: ['港湾灯光', '花园', '夜市', '文化遗产', '河畔', '社区', '屋顶', '爵士', '灯笼'],
    second: ['音乐会', '工作坊', '节庆', '导览', '讲座', '市集', '放映会', '独奏会', '聚会'],
  },
  ms: {
    first: [
      'Cahaya Pelabuhan',
      'Taman',
      'Pasar Malam',
      'Warisan',
      'Tepi Sungai',
      'Komuniti',
      'Bumbung',
      'Jaz',
      'Tanglung',
    ],
    second: ['Konsert', 'Bengkel', 'Pesta', 'Jalan-jalan', 'Ceramah', 'Pameran', 'Tayangan', 'Resital', 'Pertemuan'],
  },
  ta: {
    first: ['துறைமுக விளக்குகள்', 'தோட்ட', 'இரவுச் சந்தை', 'பாரம்பரிய', 'ஆற்றங்கரை', 'சமூக', 'மேல்தள', 'ஜாஸ்', 'விளக்கு'],
    second: ['இசை நிகழ்ச்சி', 'பயிலரங்கு', 'திருவிழா', 'நடை', 'உரை', 'கண்காட்சி', 'திரையிடல்', 'இசைக்கச்சேரி', 'சந்திப்பு'],
  },
}

/** Sentences the Markdown bodies are drawn from; a few carry inline Markdown so the renderer has work. */
export const SENTENCES: Record<BenchLang, string[]> = {
  en: [
    'Join us for an evening of **live music** by the water, with food stalls opening an hour before.',
    'Bring a mat and a friend; seating is first come, first served.',
    'The programme features local artists alongside _special guests_ from across the region.',
    'Tickets include a drink and a printed guide to the [heritage trail](https://example.org/trail).',
    'Children under twelve enter free when accompanied by an adult.',
    'In case of heavy rain the event moves indoors to the main hall.',
    'Wheelchair access is available at the north entrance, and volunteers will be on hand to help.',
    'Photography is welcome, but please keep the flash off during performances.',
  ],
  'zh-hans': [
    '欢迎参加水边的**现场音乐**之夜，小吃摊位将提前一小时开放。',
    '请自备坐垫并邀请朋友同行，座位先到先得。',
    '节目由本地艺术家与来自区域各地的_特别嘉宾_共同呈现。',
    '门票包含一杯饮料和一份[文化遗产步道](https://example.org/trail)印刷指南。',
    '十二岁以下儿童在成人陪同下免费入场。',
    '如遇大雨，活动将移至主厅举行。',
    '北门设有无障碍通道，志愿者将在现场提供协助。',
    '欢迎拍照，但演出期间请关闭闪光灯。',
  ],
  ms: [
    'Sertai kami untuk malam **muzik secara langsung** di tepi air, dengan gerai makanan dibuka sejam lebih awal.',
    'Bawa tikar dan rakan anda; tempat duduk adalah mengikut siapa cepat dia dapat.',
    'Program ini menampilkan artis tempatan bersama _tetamu istimewa_ dari seluruh rantau.',
    'Tiket termasuk minuman dan panduan bercetak ke [laluan warisan](https://example.org/trail).',
    'Kanak-kanak bawah dua belas tahun masuk percuma jika ditemani orang dewasa.',
    'Jika hujan lebat, acara akan dipindahkan ke dewan utama.',
    'Akses kerusi roda disediakan di pintu masuk utara, dan sukarelawan sedia membantu.',
    'Fotografi dialu-alukan, tetapi sila matikan denyar semasa persembahan.',
  ],
  ta: [
    'நீர்க்கரையில் **நேரடி இசை** மாலைக்கு எங்களுடன் சேருங்கள்; உணவுக் கடைகள் ஒரு மணி நேரம் முன்பே திறக்கப்படும்.',
    'ஒரு பாயையும் நண்பரையும் அழைத்து வாருங்கள்; இருக்கைகள் முதலில் வருபவர்களுக்கே.',
    'உள்ளூர் கலைஞர்களுடன் வட்டாரம் முழுவதிலுமிருந்து _சிறப்பு விருந்தினர்கள்_ பங்கேற்கின்றனர்.',
    'நுழைவுச்சீட்டில் ஒரு பானமும் [பாரம்பரியப் பாதை](https://example.org/trail) வழிகாட்டியும் அடங்கும்.',
    'பெரியவருடன் வரும் பன்னிரண்டு வயதுக்குட்பட்ட குழந்தைகளுக்கு அனுமதி இலவசம்.',
    'கனமழை பெய்தால் நிகழ்வு பிரதான மண்டபத்துக்கு மாற்றப்படும்.',
    'வடக்கு நுழைவாயிலில் சக்கர நாற்காலி அணுகல் உண்டு; தன்னார்வலர்கள் உதவுவார்கள்.',
    'புகைப்படம் எடுக்கலாம், ஆனால் நிகழ்ச்சியின் போது ஃபிளாஷைத் தவிர்க்கவும்.',
  ],
}

/** Names of the linked records per language: venues, organizers, categories and tags. */
export const NAMES: Record<BenchLang, Record<'venues' | 'organizers' | 'categories' | 'tags', string>> = {
  en: { venues: 'Hall', organizers: 'Society', categories: 'Category', tags: 'Tag' },
  'zh-hans': { venues: '礼堂', organizers: '协会', categories: '类别', tags: '标签' },
  ms: { venues: 'Dewan', organizers: 'Persatuan', categories: 'Kategori', tags: 'Label' },
  ta: { venues: 'மண்டபம்', organizers: 'சங்கம்', categories: 'வகை', tags: 'குறிச்சொல்' },
}

/** A small seeded PRNG (mulberry32), so every run generates the same corpus and results stay comparable. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Words a search finds in a language: title words, plus the bodies' longer words where spaces separate them. */
export function searchWords(lang: BenchLang): string[] {
  const titles = [...TITLE_WORDS[lang].first, ...TITLE_WORDS[lang].second].flatMap((words) => words.split(' '))
  // Chinese is written without spaces, so only its title words are known to be whole words.
  const bodies =
    lang === 'zh-hans'
      ? []
      : SENTENCES[lang].flatMap((s) => s.split(/[^\p{L}\p{M}]+/u)).filter((w) => [...w].length >= 6)
  return [...new Set([...titles, ...bodies])]
}
