// The launcher's name before the campaign's headline is known, in each built-in language: one
// export per language, so the launcher file carries them all and the dialog (through each
// language's messages, `referFriend`) only its own.
export const en = 'Refer a friend'
export const de = 'Freunde empfehlen'
export const fr = 'Parrainer un ami'
export const es = 'Recomienda a un amigo'
export const ja = '友達を紹介'
export const ar = 'ادعُ صديقًا'
export const ptBR = 'Indique um amigo'
export const it = 'Invita un amico'
export const nl = 'Nodig een vriend uit'
export const pl = 'Poleć znajomemu'
export const zhCN = '推荐好友'
export const ko = '친구 추천'
