/** Turkish. Suffixes attach to words ("notlarımda"), so hints name the common forms. */
import type { RouterLanguage } from "./types";

export const tr: RouterLanguage = {
  code: "tr",
  stop:
    "ve ile veya ya da de da ki mi mu mü mı bir bu su şu o bunu bunun buna sunu onu onun ona ben beni bana benim sen seni sana senin biz bizim siz onlar " +
    "ne neden niye nasil nerede nereye hangi kim kac icin gibi kadar daha cok en hem ama fakat ancak eger sonra once simdi lutfen acaba bile sadece " +
    "var yok olan olarak oldu olsun misin musun mısın musunuz misiniz mi icinde uzerine hakkinda tum butun her hep biraz sey",
  days: "bugun bugunku bugunun dun dunku dunun yarin yarinki",
  smallTalk: [
    "(sen )?(cok iyisin|harikasin|mukemmelsin|bir tanesin)", "eline saglik", "aferin",
    "merhaba", "selam", "selamlar", "hey", "gunaydin", "iyi (aksamlar|geceler|gunler|sabahlar)", "hayirli sabahlar",
    "tesekkur(ler| ederim)", "cok tesekkurler", "sag ol", "sagol", "eyvallah", "mersi",
    "nasilsin", "nasilsiniz", "naber", "ne haber", "iyi misin", "keyifler nasil",
    "sen kimsin", "sen nesin", "neler yapabilirsin", "ne yapabilirsin",
    "(bana )?bir (fikra|saka) (anlat|yap|soyle)", "fikra anlat", "saka yap", "beni guldur", "komik bir sey soyle",
    "tamam", "ok", "super", "harika", "guzel", "hosca kal", "gorusuruz", "gule gule", "yarin gorusuruz", "kendine iyi bak",
  ],
  chatWords: ["fikra\\w*", "saka\\w*", "komik"],
  question: ["ne", "neden", "niye", "nasil", "nerede", "nereye", "hangi", "kim", "kac", "acikla"],
  questionAnywhere: ["ne", "nedir", "neresi", "nerede", "kimdir", "kim", "kimin", "nasil", "neden", "hangi", "kac", "mi", "mi\\?", "mu", "mı"],
  vault: [
    "not", "notu\\w*", "notla\\w*", "notum\\w*", "notun\\w*", "nota", "notta\\w*", "kasa\\w*", "vault", "dosya\\w*", "klasor\\w*", "gunlu\\w*", "etiket\\w*", "tag\\w*", "baglanti\\w*", "link\\w*", "backlink\\w*",
    "benim", "inbox", "gorev\\w*", "yapilacak\\w*", "proje\\w*", "sayfa\\w*", "yaz\\w*", "kaydet\\w*", "hatirl\\w*", "ara", "bul", "ac", "oku", "ozellik\\w*",
  ],
  change: [
    "kaydet\\w*", "yaz\\w*", "ekle\\w*", "olustur\\w*", "yap", "koy\\w*", "guncelle\\w*", "degistir\\w*", "duzenle\\w*", "hatirla\\w*", "not al\\w*", "not et\\w*",
    "tasi\\w*", "adini\\w*", "yeniden adlandir\\w*", "sil\\w*", "kaldir\\w*", "isaretle\\w*", "duzelt\\w*", "ayarla\\w*",
  ],
  hints: {
    "vault:read": ["Projeler/Plan.md dosyasının içeriğini göster", "Toplantı notunu bana oku", "[[Haftalık plan]] dosyasını aç", "Bu notta ne yazıyor?", "Fikirler.md notunu özetle", "notumu göster"],
    "vault:write": ["Gezi.md adında yeni bir not oluştur", "Projeler klasöründe bir dosya aç", "Bu metinle yeni bir not yaz", "Notun tamamının üzerine yaz", "Yeni not"],
    "vault:append": ["Bu cümleyi notun sonuna ekle", "Nota bir satır ekle", "Notu bu maddeyle tamamla", "Bunu Inbox.md notunun en altına yaz", "Bunu dosyaya not et"],
    "vault:edit": ["Notta \"eski\" yazan yeri \"yeni\" yap", "Notundaki metni değiştir", "Fikirler.md içindeki yazım hatasını düzelt", "Bu kelimeyi başka bir kelimeyle değiştir", "Nottaki cümleyi düzenle", "Nottaki satırı güncelle"],
    "vault:list": ["Klasördeki tüm notları listele", "Projeler klasöründe hangi dosyalar var?", "Klasörde ne olduğunu göster", "Kaç notum var?", "Dosyalarımın listesi"],
    "vault:search": ["Notlarımda bu konuyla ilgili bir şey var mı?", "Notlarımda bu kelimeyi ara", "Bu konudan bahseden notları bul", "Bunu nereye yazmıştım?", "Kasada bir terimi ara", "Hangi not bundan bahsediyor?"],
    "vault:semantic_search": ["Bu fikre benzeyen notları bul", "Bu konu hakkında ne düşünmüştüm?", "Bu konuyla ilgili benzer notlar"],
    "vault:move": ["Notu Arşiv klasörüne taşı", "Dosyanın adını değiştir", "Nota yeni bir ad ver", "Notu başka bir klasöre koy", "Notu arşivle"],
    "vault:delete": ["Notu sil", "Taslak.md dosyasını sil", "Notu çöp kutusuna at", "Bu eski nottan kurtul", "Not silme"],
    "note:active": ["Şu anki notu özetle", "Bu not ne hakkında?", "Şu an açık olan not", "Şu anda neye bakıyorum?"],
    "note:selection": ["Seçilen kısmı açıkla", "Seçimi yeniden yaz", "İşaretlediğim metin", "Seçtiğim yer", "Seçili metni kısalt"],
    "note:outline": ["Notun ana hatlarını çıkar", "Notun başlıklarını göster", "Projeler/Plan.md hangi bölümlerden oluşuyor?", "Notun içindekiler tablosu", "Notun yapısı"],
    "tags:list": ["Kasamda hangi etiketler var?", "Tüm etiketlerimi listele", "En çok kullandığım etiketler", "Etiketlerimi göster"],
    "tags:notes": ["#iş etiketli notlar", "Hangi notlarda #fikir etiketi var?", "Proje etiketi olan her şey", "#yemek etiketli tüm notlar"],
    "links:backlinks": ["Hangi notlar [[Başlangıç]] notuna bağlantı veriyor?", "Bu nota gelen bağlantılar", "Notun geri bağlantıları", "Bu nota nereden link verilmiş?"],
    "links:outgoing": ["Notta hangi bağlantılar var?", "Ana sayfa.md nereye bağlantı veriyor?", "Notun giden bağlantıları", "Nottaki kırık bağlantılar"],
    "frontmatter:get": ["Projenin durumu özelliklerde ne?", "Projeler/Plan.md notunun frontmatter bilgisini göster", "Notun meta verileri", "Notun özellikleri neler?", "Projenin teslim tarihi ne?"],
    "frontmatter:set": ["Notun durumunu bitti olarak ayarla", "Öncelik özelliğini değiştir", "Özelliklere bir son tarih ekle", "Projeyi tamamlandı olarak işaretle", "Frontmatter bilgisini güncelle"],
    "daily:get": ["Bugünkü günlük notumda ne yazıyor?", "Dünkü günlüğümü göster", "2026-11-18 tarihinde ne yapmıştım?", "Bugünün notunu aç"],
    "daily:append": ["Bugünkü günlüğe bisiklete bindiğimi yaz", "Bunu bugünün günlük notuna ekle", "Günlüğüme toplantının iyi geçtiğini not et", "Bugünün günlüğüne ekle"],
    "tasks:list": ["Hangi görevlerim kaldı?", "Yapılacaklar listemi göster", "Daha ne yapmam gerekiyor?", "Yapılmamış görevler", "Hangi görevleri bitirdim?"],
    "tasks:add": ["Yeni görev: arabayı yıka", "Bir görev ekle", "Yeni bir yapılacak oluştur", "Doktoru aramamı hatırlat", "Bunu görev listeme ekle", "Ekmek almam lazım"],
    "tasks:complete": ["Görevi tamamlandı olarak işaretle", "Görev bitti, üstünü çiz", "Bu yapılacağı listeden çıkar", "Görevi bitirdim"],
    "clock:now": ["Saat kaç?", "Bugün günlerden ne?", "Bugünün tarihi", "Kaçıncı haftadayız?", "Saati söyler misin?"],
    "memory:save": ["Kahveyi şekersiz içtiğimi hatırla", "Anna'nın doğum gününün mayısta olduğunu unutma", "Bunu sonrası için sakla", "Metrik birimleri tercih ettiğimi aklında tut"],
    "memory:recall": ["Benim hakkımda ne biliyorsun?", "Benim hakkımda neyi hatırlıyorsun?", "Anna hakkında sana ne dediğimi hatırlıyor musun?", "Tercihlerimi hatırlıyor musun?", "Sana ne anlatmıştım?"],
    "web:fetch": ["https://example.com sayfasını oku", "Bu web sitesinde ne yazıyor?", "Bu adresteki makaleyi getir", "Bağlantıyı özetle"],
  },
};
